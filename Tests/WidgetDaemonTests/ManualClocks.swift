import Foundation
import NIOCore
import Synchronization
import WidgetCore
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// The three clocks of a machine that suspends, driven by hand: the wall clock (which a step
/// sets), CLOCK_BOOTTIME (which counts suspend) and the monotonic clock the wake-up timer runs
/// on (which stops during suspend). A timer armed on it fires only when the test runs the
/// machine up to it, as the event loop would.
final class ManualClocks: Sendable {
    struct Timer {
        var due: Double
        var fire: @Sendable () -> Void
        var cancelled = false
        var fired = false
        var live: Bool { !cancelled && !fired }
    }

    struct Clocks {
        var wall: Date
        var boot: Double = 500
        var monotonic: Double = 100
        var timers: [Timer] = []
    }

    let clocks: Mutex<Clocks>

    init(wall: String) { clocks = Mutex(Clocks(wall: ISO8601.date(from: wall)!)) }

    var wall: Date { clocks.withLock { $0.wall } }
    var boot: Double { clocks.withLock { $0.boot } }
    /// Timers armed so far, and those neither fired nor cancelled.
    var armed: Int { clocks.withLock { $0.timers.count } }
    var live: Int { clocks.withLock { $0.timers.filter(\.live).count } }
    /// How far away on the monotonic clock the live timers are, in seconds.
    var liveDelays: [Double] { clocks.withLock { clocks in clocks.timers.filter(\.live).map { $0.due - clocks.monotonic } } }

    /// The cancelled timers' closures, as a loop that took them as due before they were
    /// cancelled would still run them.
    var cancelledFires: [@Sendable () -> Void] { clocks.withLock { $0.timers.filter(\.cancelled).map(\.fire) } }

    var armTimer: EngineSetup.ArmTimer {
        { [self] _, delay, fire in
            let index = clocks.withLock { clocks in
                clocks.timers.append(Timer(due: clocks.monotonic + Double(delay.nanoseconds) / 1e9, fire: fire))
                return clocks.timers.count - 1
            }
            return { [self] in clocks.withLock { $0.timers[index].cancelled = true } }
        }
    }

    /// The wall clock is set `seconds` away (`date -s`, an NTP step); nothing else moves.
    func step(_ seconds: Double) {
        clocks.withLock { $0.wall += seconds }
    }

    /// The machine sleeps `seconds`: wall and boot time go on, the monotonic clock stops.
    func suspend(_ seconds: Double) {
        clocks.withLock {
            $0.wall += seconds
            $0.boot += seconds
        }
    }

    /// The machine runs until the wall clock reads `target`, firing each timer on the engine's
    /// loop as it comes due (the earliest first, in the order armed when they are due together);
    /// returns how many fired.
    @discardableResult
    func run(until target: String, _ harness: Harness) async -> Int {
        let target = ISO8601.date(from: target)!
        var fired = 0
        while let fire = nextFire(before: target) {
            await harness.inspect { _ in fire() }
            fired += 1
        }
        return fired
    }

    /// Moves all three clocks to the next live timer due by `target` and takes it, or to `target`.
    private func nextFire(before target: Date) -> (@Sendable () -> Void)? {
        clocks.withLock { clocks in
            let left = target.timeIntervalSince(clocks.wall)
            let next = clocks.timers.indices.filter { clocks.timers[$0].live }.min { clocks.timers[$0].due < clocks.timers[$1].due }
            let elapsed = next.map { max(0, clocks.timers[$0].due - clocks.monotonic) } ?? .infinity
            guard let index = next, elapsed <= left else {
                clocks.wall += left
                clocks.boot += left
                clocks.monotonic += left
                return nil
            }
            clocks.wall += elapsed
            clocks.boot += elapsed
            clocks.monotonic += elapsed
            clocks.timers[index].fired = true
            return clocks.timers[index].fire
        }
    }
}
