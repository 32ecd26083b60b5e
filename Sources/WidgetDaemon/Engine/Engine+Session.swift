import Foundation
import WidgetCore

extension Engine {
    /// logind's `PrepareForSleep(true)`: returns once the commits under way are stored and
    /// synced (the store syncs each transaction); the watchers then release their inhibitor and
    /// the machine sleeps. Changes that still come are as safe as at any other time.
    public func prepareForSleep() async {
        time.wake.sleeps += 1
        await plansIdle()
    }

    /// `PrepareForSleep(false)`: the machine woke. Everything that came due while asleep is
    /// carried out now, in order, in one step (the wall-clock watcher's `tick` does the same on
    /// systems without logind; whichever comes second finds nothing due).
    public func resumedFromSleep() {
        time.wake.resumes += 1
        let passes = time.wake.duePasses
        let due = catchUp()
        io.logger.info(
            "resumed from sleep: what came due carried out in one step",
            metadata: ["due": "\(due)", "passes": "\(time.wake.duePasses - passes)", "now": "\(ISO8601.string(from: now))"])
    }

    /// Whether some instance's timeline uses a location clue and the location source is on:
    /// GeoClue's client runs only then.
    var usesLocationClue: Bool { state.usesLocationClue }
}
