import Synchronization
import WidgetStore

/// Sends STATUS= lines paced by `StatusThrottle`. `sd_notify` blocks when nothing reads
/// `NOTIFY_SOCKET` and its datagram queue is full (net.unix.max_dgram_qlen, 10 by default);
/// that must hold up neither the engine's event loop nor a request, so the daemon's `send`
/// never waits (`SystemdNotifier.statusWithoutWaiting`). A status due at once goes out from
/// the caller, so a wake-up of the loop wakes no other thread; one held back by the pacing goes
/// out from the reporter's thread.
public final class StatusReporter: Sendable {
    private let throttle: Mutex<StatusThrottle>
    private let send: @Sendable (String) -> Void
    /// Sleeps without a timer while no status waits: the pacing costs no wake-up when idle.
    private let thread = WorkerThread(name: "widgetd-status")
    /// False when nobody listens: updates are dropped at once.
    private let active: Bool
    /// `send` never blocks, so a status due at once may go out from the caller.
    private let sendsInline: Bool

    /// `send` gets the text without `STATUS=`, on the reporter's thread; or, when `sendsInline`
    /// says it never blocks, on the thread that called `update` if the text may go out at once.
    public init(
        interval: Duration = .seconds(1), active: Bool = true, sendsInline: Bool = false,
        send: @escaping @Sendable (String) -> Void
    ) {
        throttle = Mutex(StatusThrottle(interval: interval))
        self.active = active
        self.sendsInline = sendsInline
        self.send = send
    }

    /// Through `NOTIFY_SOCKET`, without waiting; silent when it is not set.
    public convenience init(notifier: SystemdNotifier) {
        self.init(active: notifier.isActive, sendsInline: true) { notifier.statusWithoutWaiting($0) }
    }

    /// A reporter that sends nothing (tests that do not look at STATUS=).
    public static var silent: StatusReporter { StatusReporter { _ in } }

    /// Records the latest status; it goes out now, or once a second has passed since the last.
    public func update(_ text: String) {
        guard active else { return }
        let action = throttle.withLock { $0.offer(text, now: .now) }
        guard case .flush(let wait) = action else { return }
        if wait <= .zero && sendsInline { flush() } else { thread.async(after: wait) { self.flush() } }
    }

    /// Sends nothing more (before STOPPING=1, which carries the last status).
    public func close() {
        throttle.withLock { $0.close() }
    }

    private func flush() {
        guard let text = throttle.withLock({ $0.flush(now: .now) }) else { return }
        send(text)
    }
}
