import CSystemd
import Foundation
import Glibc

/// Wakes the engine when the wall clock is set (NTP step, `date -s`, resume): its timer
/// sleeps on the monotonic clock towards wall-clock deadlines, so it must recompute them
/// (docs/overview.md). A `CLOCK_REALTIME` timerfd armed with `TFD_TIMER_CANCEL_ON_SET`
/// fails its read with ECANCELED on every such change.
enum WallClockWatcher {
    /// Starts a thread that calls `changed` after each wall-clock change; false when the
    /// kernel offers no timerfd (a step is then noticed at the next wake-up).
    @discardableResult
    static func start(_ changed: @escaping @Sendable () -> Void) -> Bool {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard fd >= 0 else { return false }
        Thread.detachNewThread {
            Thread.current.name = "widgetd-clock"
            var expirations: UInt64 = 0
            while true {
                // Far in the future: only the cancellation matters.
                var spec = itimerspec()
                spec.it_value.tv_sec = time(nil) + 365 * 86400
                let flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
                guard timerfd_settime(fd, flags, &spec, nil) == 0 else { return }
                let result = read(fd, &expirations, MemoryLayout<UInt64>.size)
                if result < 0 && errno == ECANCELED { changed() }
            }
        }
        return true
    }
}
