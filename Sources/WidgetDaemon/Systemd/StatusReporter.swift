import Synchronization
import WidgetStore

/// Sends STATUS= lines paced by `StatusThrottle`, from a thread of its own. `sd_notify`
/// blocks when nothing reads `NOTIFY_SOCKET` and its datagram queue is full
/// (net.unix.max_dgram_qlen, 10 by default); that must hold up neither the engine's event loop
/// nor a request, so `update` only records the text and schedules a flush.
public final class StatusReporter: Sendable {
    private let throttle: Mutex<StatusThrottle>
    private let send: @Sendable (String) -> Void
    /// Sleeps without a timer while no status waits: the pacing costs no wake-up when idle.
    private let thread = WorkerThread(name: "widgetd-status")

    /// `send` gets the text without `STATUS=`; it runs on the reporter's thread, one at a time.
    public init(interval: Duration = .seconds(1), send: @escaping @Sendable (String) -> Void) {
        throttle = Mutex(StatusThrottle(interval: interval))
        self.send = send
    }

    /// Through `sd_notify`.
    public convenience init(notifier: SystemdNotifier) {
        self.init { notifier.status($0) }
    }

    /// A reporter that sends nothing (tests that do not look at STATUS=).
    public static var silent: StatusReporter { StatusReporter { _ in } }

    /// Records the latest status; it goes out now, or once a second has passed since the last.
    public func update(_ text: String) {
        let action = throttle.withLock { $0.offer(text, now: .now) }
        guard case .flush(let wait) = action else { return }
        thread.async(after: wait) { self.flush() }
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
