import Foundation

/// Waiting for something to become true, with a deadline that fails naming what was awaited.
enum Poll {
    /// Polls `condition` every 20 ms for up to `seconds`; throws naming `what` if it never holds.
    static func until(_ what: String, within seconds: Double = 30, _ condition: () throws -> Bool) throws {
        // Monotonic: the clock-step tests move the wall clock by hours.
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while try !condition() {
            guard clock.now < deadline else { throw FixtureError("waited \(seconds) s for \(what)") }
            usleep(20_000)
        }
    }

    /// Polls `condition` every 20 ms for up to `seconds`; whether it came to hold. For a test
    /// that records the failure itself, with what it saw (processes exit, descriptors close
    /// and zombies are reaped asynchronously).
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
