import Foundation
import Glibc

/// The engine's time: a virtual instant that moves only when told, or the wall clock, with
/// what it takes to tell a wall-clock step from time passing and to notice a new time zone.
public struct EngineClock {
    /// nil on the real clock; the current virtual instant otherwise.
    var virtualNow: Date?
    let wallClock: @Sendable () -> Date
    /// CLOCK_BOOTTIME in seconds (`bootTime` in the daemon).
    let bootClock: @Sendable () -> Double
    /// A `clock advance` or `clock set` is under way.
    var advancing = false
    /// The wall clock and CLOCK_BOOTTIME at the last look (real clock only).
    var wallReference: (wall: Date, boot: Double)?
    /// What the time zone was last read from (see `SystemTimeZone.identity`).
    var zoneIdentity = SystemTimeZone.identity()
    /// False when no watcher runs: then every wake-up looks at the zone's sources itself.
    var zoneWatched = false

    init(virtualNow: Date?, wallClock: @escaping @Sendable () -> Date, bootClock: @escaping @Sendable () -> Double) {
        self.virtualNow = virtualNow
        self.wallClock = wallClock
        self.bootClock = bootClock
    }

    var now: Date { virtualNow ?? wallClock() }
    var isVirtual: Bool { virtualNow != nil }

    /// On the real clock, a step of the wall clock since the last look: it should have moved as
    /// much as CLOCK_BOOTTIME (which counts suspend and is never set). NTP slews the clock by up
    /// to 500 ppm; that is time passing, not a step.
    mutating func wallStep() -> (from: Date, to: Date, seconds: Double)? {
        guard virtualNow == nil else { return nil }
        let wall = wallClock()
        let boot = bootClock()
        defer { wallReference = (wall, boot) }
        guard let reference = wallReference else { return nil }
        let elapsed = boot - reference.boot
        let expected = reference.wall.addingTimeInterval(elapsed)
        let step = wall.timeIntervalSince(expected)
        guard abs(step) >= max(1, elapsed / 1000) else { return nil }
        return (expected, wall, step)
    }

    /// The system zone, when what it comes from changed since the last look.
    mutating func newTimeZone() -> TimeZone? {
        let identity = SystemTimeZone.identity()
        guard identity != zoneIdentity else { return nil }
        zoneIdentity = identity
        return SystemTimeZone.current()
    }

    /// CLOCK_BOOTTIME now, in seconds.
    public static func bootTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
