import Foundation
import Testing

extension Integration {
    /// No wake-up without work: with nothing due, no thread of the daemon runs at all.
    @Suite struct IdleWakeUps {
        @Test func anIdleDaemonWakesNoThread() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: nil)
            // A host connects, asks and leaves: what that wakes must settle too.
            #expect(fixture.ctl("status").status == 0)
            let id = try fixture.add("test.pushed")
            let timeline = #"{"entries":[{"date":"2026-01-05T08:30:00Z","content":"old"}],"policy":"never"}"#
            #expect(fixture.ctl(["push", id, "-"], stdin: timeline).status == 0)
            let pid = try #require(fixture.pid)

            let previous = try ThreadSwitches.settled(pid)
            usleep(3_000_000)
            let woken = previous.wakeUps(until: ThreadSwitches(pid))
            #expect(woken.isEmpty, "threads woke with nothing due: \(woken)")
        }
    }
}
