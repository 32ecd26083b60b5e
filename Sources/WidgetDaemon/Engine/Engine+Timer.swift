import Foundation
import NIOCore
import WidgetCore

extension Engine {
    /// Sets the one timer towards the earliest deadline of everything the state holds (real
    /// clock). Nothing due: no timer at all. On the virtual clock time moves only when told,
    /// and what is due now has been carried out by the step.
    func rearm() {
        guard !clock.isVirtual, !stopping, let next = state.nextWake else {
            cancelTimer()
            return
        }
        guard wake.timerFor != next || wake.timer == nil else { return }
        wake.timer?.cancel()
        let seconds = max(0, next.timeIntervalSince(now))
        wake.timerFor = next
        wake.timer = loop.scheduleTask(in: .microseconds(Int64((seconds * 1e6).rounded(.up)))) { [self] in
            self.assumeIsolated { $0.tick() }
        }
    }

    func cancelTimer() {
        wake.timer?.cancel()
        wake.timer = nil
        wake.timerFor = nil
    }

    /// The timer fired, or the wall clock was set: whatever is due now is carried out.
    func tick() {
        wake.timer = nil
        wake.timerFor = nil
        if !clock.zoneWatched { refreshTimeZone() }
        settle(nil)
    }

    /// On the real clock, a wall-clock step since the last look (every step looks, and
    /// `WallClockWatcher` calls `tick` on every `settimeofday`, so this runs right after a step). A step back (a second
    /// or more) is handled by the state's rules; a step forward needs nothing more than
    /// carrying out what is now due.
    func noticeWallClockStep() {
        guard let step = clock.wallStep() else { return }
        logger.notice(
            "wall clock stepped; recomputing what is due",
            metadata: ["step": "\(String(format: "%+.3f", step.seconds)) s", "from": "\(ISO8601.string(from: step.from))",
                       "to": "\(ISO8601.string(from: step.to))"])
        if step.seconds < 0 { publish(state.clockSteppedBack(from: step.from, to: step.to)) }
    }

    /// Re-reads the system time zone when what it comes from changed (`TimeZoneWatcher` calls
    /// this when /etc/localtime is replaced; without a watcher every wake-up looks).
    func refreshTimeZone() {
        guard let zone = clock.newTimeZone(), zone != state.calendar.timeZone else { return }
        logger.notice(
            "time zone changed; recomputing local times",
            metadata: ["from": "\(state.calendar.timeZone.identifier)", "to": "\(zone.identifier)"])
        state.setTimeZone(zone)
    }

    /// `TimeZoneWatcher` saw /etc/localtime change.
    public func timeZoneChanged() {
        refreshTimeZone()
        settle(nil)
    }

    /// Whether `TimeZoneWatcher` runs, so wake-ups need not look at the zone themselves.
    public func setTimeZoneWatched(_ watched: Bool) {
        clock.zoneWatched = watched
    }
}
