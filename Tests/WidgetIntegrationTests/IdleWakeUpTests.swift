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

            // libdispatch's threads (the signal sources' and whatever a library starts on a queue)
            // end a few seconds after their work; measure once every thread held still for 6 s.
            var previous = ThreadSwitches(pid)
            var stillSince = Date()
            let deadline = Date().addingTimeInterval(60)
            while Date().timeIntervalSince(stillSince) < 6 {
                try #require(Date() < deadline, "the daemon's threads kept waking for 60 s: \(previous.threads)")
                usleep(200_000)
                let now = ThreadSwitches(pid)
                if now != previous {
                    previous = now
                    stillSince = Date()
                }
            }
            usleep(3_000_000)
            let woken = previous.wakeUps(until: ThreadSwitches(pid))
            #expect(woken.isEmpty, "threads woke with nothing due: \(woken)")
        }
    }
}
