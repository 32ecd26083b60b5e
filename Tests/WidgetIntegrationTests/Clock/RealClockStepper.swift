import Foundation
@testable import WidgetIntegrationSupport

/// Steps CLOCK_REALTIME for the real-clock test, and always puts it back: the time to restore
/// is the original wall time plus the CLOCK_MONOTONIC time elapsed since, so the clock is right
/// whatever happened in between. Only for root with CAP_SYS_TIME.
final class RealClockStepper {
    private let wallAtStart: timespec
    private let monotonicAtStart: timespec
    private(set) var restored = false

    /// Why the machine's clock may not be stepped here, or nil when it may.
    static var unavailableReason: String? {
        guard geteuid() == 0 else { return "not root" }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return "cannot read CapEff" }
        // CAP_SYS_TIME is capability 25.
        guard mask & (1 << 25) != 0 else { return "no CAP_SYS_TIME" }
        return nil
    }

    init() {
        var wall = timespec()
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        clock_gettime(CLOCK_REALTIME, &wall)
        wallAtStart = wall
        monotonicAtStart = monotonic
    }

    deinit { restore() }

    /// Sets CLOCK_REALTIME to the right time plus `offset` seconds.
    func step(to offset: Double) throws {
        var target = Self.add(rightNow(), offset)
        guard clock_settime(CLOCK_REALTIME, &target) == 0 else {
            throw FixtureError("clock_settime failed: \(String(cString: strerror(errno)))")
        }
        restored = offset == 0
    }

    /// Puts the clock back to the right time (safe to call more than once).
    func restore() {
        var target = rightNow()
        if clock_settime(CLOCK_REALTIME, &target) == 0 { restored = true }
    }

    /// The original wall time plus the monotonic time elapsed since.
    private func rightNow() -> timespec {
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let elapsed = Double(monotonic.tv_sec - monotonicAtStart.tv_sec) + Double(monotonic.tv_nsec - monotonicAtStart.tv_nsec) / 1e9
        return Self.add(wallAtStart, elapsed)
    }

    private static func add(_ time: timespec, _ seconds: Double) -> timespec {
        let total = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 + seconds
        let whole = total.rounded(.down)
        return timespec(tv_sec: Int(whole), tv_nsec: Int((total - whole) * 1e9))
    }
}
