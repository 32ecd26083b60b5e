import CSystemd
import Foundation
import Synchronization
import WidgetStore

/// `sd_notify` for readiness, status, watchdog, reload and stop. A no-op when
/// `NOTIFY_SOCKET` is unset, i.e. when not started by systemd (or a test posing as it).
///
/// Every message is sent in order from a thread of its own. `sd_notify` blocks when nothing
/// reads `NOTIFY_SOCKET` and its datagram queue is full (net.unix.max_dgram_qlen, 10 by
/// default); STOPPING=1 sent inline then held up SIGTERM for good (found by
/// HostileFramesTests, whose stand-in for systemd does not read). `drain(timeout:)` at exit
/// gives the last messages their chance without waiting forever.
public final class SystemdNotifier: Sendable {
    private let thread = WorkerThread(name: "widgetd-notify")
    /// Messages handed to the thread and not yet sent: a status sent straight away must not
    /// overtake them.
    private let queued = Mutex(0)
    /// For `STATUS=` straight from the event loop, without waiting (nil without `NOTIFY_SOCKET`).
    private let datagram: NotifyDatagram?
    /// Whether anyone listens (`NOTIFY_SOCKET` is set): otherwise nothing is sent, and no
    /// thread is woken to send it.
    public let isActive: Bool

    public init() {
        let path = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        isActive = path != nil
        datagram = path.flatMap(NotifyDatagram.init)
    }

    public func notify(_ assignments: String) {
        guard isActive else { return }
        queued.withLock { $0 += 1 }
        thread.async {
            _ = sd_notify(0, assignments)
            self.queued.withLock { $0 -= 1 }
        }
    }

    /// `STATUS=` now, from the caller's thread, when the socket takes it without waiting;
    /// otherwise in turn on the notifier's thread. The engine's loop sends its paced status
    /// this way, so a status change wakes no other thread.
    public func statusWithoutWaiting(_ text: String) {
        guard isActive else { return }
        let message = "STATUS=\(text)"
        let sent = queued.withLock { count in count == 0 && datagram?.send(message) == true }
        if !sent { notify(message) }
    }

    /// Waits until every message so far is sent, or until `timeout` has passed.
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        thread.waitUntilIdle(timeout: timeout)
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func stopping() { notify("STOPPING=1\nSTATUS=stopping") }
    public func watchdog() { notify("WATCHDOG=1") }

    /// `RELOADING=1` with the monotonic time, as systemd 253+ expects and 252 tolerates.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        notify("RELOADING=1\nMONOTONIC_USEC=\(microseconds)\nSTATUS=reloading configuration")
    }

    /// Half the interval systemd's watchdog wants pings at, or nil when it is off.
    public func watchdogPingInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds / 2))
    }
}
