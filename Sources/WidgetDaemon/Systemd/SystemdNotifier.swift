import CSystemd
import Foundation
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

    public init() {}

    public func notify(_ assignments: String) {
        thread.async { _ = sd_notify(0, assignments) }
    }

    /// Waits until every message so far is sent, or until `timeout` has passed.
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        thread.waitUntilIdle(timeout: timeout)
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func status(_ text: String) { notify("STATUS=\(text)") }
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
