/// Decides when a STATUS= line goes out: at most one send per `interval`, and the latest
/// text always goes out in the end. A value with no clock of its own, so a test moves time.
///
/// Why: systemd shows only the last STATUS=, and a busy daemon can change its summary
/// thousands of times a second; each send is a datagram, and a full notify queue blocks.
struct StatusThrottle {
    typealias Instant = ContinuousClock.Instant

    /// What the caller does after `offer`.
    enum Action: Equatable {
        /// Nothing: the text is already out, a flush is already scheduled, or sending has ended.
        case none
        /// Call `flush` after this long (zero: now).
        case flush(after: Duration)
    }

    let interval: Duration
    private var sent: String?
    private var lastSent: Instant?
    private var pending: String?
    private var flushScheduled = false
    private var closed = false

    init(interval: Duration) {
        self.interval = interval
    }

    /// A new status text. Says whether (and when) a flush must be scheduled.
    mutating func offer(_ text: String, now: Instant) -> Action {
        guard !closed else { return .none }
        // Coming back to the text already out cancels a change not yet sent.
        pending = text == sent ? nil : text
        guard pending != nil, !flushScheduled else { return .none }
        flushScheduled = true
        guard let lastSent else { return .flush(after: .zero) }
        return .flush(after: max(lastSent.advanced(by: interval) - now, .zero))
    }

    /// The scheduled flush: the text to send now, if one is still waiting.
    mutating func flush(now: Instant) -> String? {
        flushScheduled = false
        guard !closed, let text = pending else { return nil }
        pending = nil
        sent = text
        lastSent = now
        return text
    }

    /// Nothing is sent after this: STOPPING=1 carries the last status.
    mutating func close() {
        closed = true
        pending = nil
    }
}
