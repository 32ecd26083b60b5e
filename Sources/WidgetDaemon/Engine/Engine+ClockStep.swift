import Foundation
import Glibc
import WidgetCore
import WidgetProtocol

extension Engine {
    /// The wall clock went back from `old` to `now` (semantics.md, Time 1). Due dates are wall
    /// instants and stay; the core's rules hold back nothing by the size of the step
    /// (`ReloadScheduler.clockSteppedBack`, `StackState.clampDates`). Each instance's next entry
    /// change is recomputed, and a host is told at once when the entry shown at `now` is not
    /// the one it was shown. Nothing that ran is run again.
    func clockSteppedBack(from old: Date, to now: Date) {
        scheduler.clockSteppedBack(from: old, to: now)
        for (id, stored) in timelines {
            let timeline = stored.timeline
            scheduler.setNextEntryChange(id, timeline.nextEntryDate(after: now))
            guard let current = timeline.currentIndex(at: now), current != timeline.currentIndex(at: old) else { continue }
            events.publish(WidgetEvent(type: .entryChange, date: now, instance: id, entry: timeline.entries[current]))
        }
        // Dwell, hold and cap rechecks were computed from dates after `now`.
        stackRecheck.removeAll()
        dirtyStacks.formUnion(stacks.keys)
    }

    /// On the real clock, tells a wall-clock step from time passing: the wall clock should
    /// have moved as much as CLOCK_BOOTTIME (which counts suspend and is never set) since the
    /// last tick. `WallClockWatcher` rings the loop on every `settimeofday`, so this runs right
    /// after a step; a step back (a second or more) is handled by `clockSteppedBack`, a step
    /// forward needs nothing more than processing what is now due.
    func noticeWallClockStep() {
        guard virtualNow == nil else { return }
        let wall = wallClock()
        let boot = Self.bootTime()
        defer { wallReference = (wall, boot) }
        guard let reference = wallReference else { return }
        let elapsed = boot - reference.boot
        let expected = reference.wall.addingTimeInterval(elapsed)
        let step = wall.timeIntervalSince(expected)
        // NTP slews the clock by up to 500 ppm; that is time passing, not a step.
        guard abs(step) >= max(1, elapsed / 1000) else { return }
        logger.notice(
            "wall clock stepped; recomputing what is due",
            metadata: ["step": "\(String(format: "%+.3f", step)) s", "from": "\(ISO8601.string(from: expected))",
                       "to": "\(ISO8601.string(from: wall))"])
        if step < 0 { clockSteppedBack(from: expected, to: wall) }
    }

    static func bootTime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
