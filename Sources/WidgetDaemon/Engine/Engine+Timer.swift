import Foundation
import NIOCore
import WidgetCore

extension Engine {
    /// Sets the one timer towards the earliest deadline of everything the state holds (real
    /// clock). Nothing due: no timer at all. On the virtual clock time moves only when told,
    /// and what is due now has been carried out by the step. A timer set before is cancelled
    /// first: a second one would run a second pass at every deadline from then on.
    func rearm() {
        guard !time.clock.isVirtual, !time.stopping, let next = nextWake else {
            cancelTimer()
            return
        }
        guard time.wake.timerFor != next || time.wake.timer == nil else { return }
        cancelTimer()
        let seconds = max(0, next.timeIntervalSince(now))
        time.wake.timersArmed += 1
        let number = time.wake.timersArmed
        let cancel = io.setup.armTimer(loop, .microseconds(Int64((seconds * 1e6).rounded(.up)))) { [self] in
            self.assumeIsolated { $0.timerFired(number) }
        }
        time.wake.timer = WakeTimer(number: number, cancel: cancel)
        time.wake.timerFor = next
    }

    /// The earliest instant anything is due (`DaemonState.nextWake`), read here from the two
    /// stored dates: calling the state's own property from this module made the loop copy the
    /// whole state (every book and index retained, then released) for it, twice a request.
    var nextWake: Date? {
        let deadline = state.scheduler.nextDeadline()
        guard let recheck = state.stacks.nextRecheck else { return deadline }
        guard let deadline else { return recheck }
        return min(deadline, recheck)
    }

    func cancelTimer() {
        time.wake.timer?.cancel()
        time.wake.timer = nil
        time.wake.timerFor = nil
    }

    /// The timer fired. Only the one armed last counts: the loop may still run a task that was
    /// cancelled once it had come due (it takes every due task before running them), and that
    /// task's deadline has been replaced.
    private func timerFired(_ number: Int) {
        guard time.wake.timer?.number == number else { return }
        time.wake.timer = nil
        time.wake.timerFor = nil
        time.wake.timersRun += 1
        tick()
    }

    /// Whatever is due now is carried out, and the timer set again. The timer comes here, and so
    /// does `WallClockWatcher` when the wall clock is set (a step, or the resume from a suspend,
    /// during which the monotonic timer stood still): then the timer armed before is cancelled,
    /// since its deadline may have moved or passed, and `settle` arms the one timer afresh.
    func tick() {
        catchUp()
    }

    /// `tick`, answering how many entry changes and reload batches were due (the resume logs it).
    @discardableResult
    func catchUp() -> Int {
        cancelTimer()
        if !time.clock.zoneWatched { refreshTimeZone() }
        return settle(nil)
    }

    /// On the real clock, a wall-clock step since the last look (every step looks, and
    /// `WallClockWatcher` calls `tick` on every `settimeofday`, so this runs right after a step). A step back (a second
    /// or more) is handled by the state's rules; a step forward needs nothing more than
    /// carrying out what is now due.
    func noticeWallClockStep() {
        guard let step = time.clock.wallStep() else { return }
        io.logger.notice(
            "wall clock stepped; recomputing what is due",
            metadata: ["step": "\(String(format: "%+.3f", step.seconds)) s", "from": "\(ISO8601.string(from: step.from))",
                       "to": "\(ISO8601.string(from: step.to))"])
        if step.seconds < 0 { publish(state.clockSteppedBack(from: step.from, to: step.to)) }
    }

    /// Re-reads the system time zone when what it comes from changed (`TimeZoneWatcher` calls
    /// this when /etc/localtime is replaced; without a watcher every wake-up looks).
    func refreshTimeZone() {
        guard let zone = time.clock.newTimeZone(), zone != state.calendar.timeZone else { return }
        io.logger.notice(
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
        time.clock.zoneWatched = watched
    }
}
