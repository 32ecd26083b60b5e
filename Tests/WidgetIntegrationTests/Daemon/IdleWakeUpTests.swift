import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// No wake-up without work: with nothing due, no thread of the daemon or the web host runs.
    @Suite struct IdleWakeUps {
        @Test func anIdleDaemonWakesNoThread() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: nil)
            // A host connects, asks and leaves: what that wakes must settle too.
            #expect(fixture.ctl("status").status == 0)
            let id = try fixture.add("test.pushed")
            #expect(fixture.ctl(["push", id, "-"], stdin: Self.timeline).status == 0)

            let woken = try Self.wakeUps(of: fixture)
            #expect(woken.isEmpty, "threads woke with nothing due: \(woken)")
            #expect(!fixture.log().contains("tasks run on libdispatch's pool"))
        }

        /// Signals are caught without libdispatch: after a SIGHUP (a reload) the daemon has no
        /// thread but its own, still wakes for nothing, and a SIGTERM ends it gracefully.
        /// swift-service-lifecycle's DispatchSource would leave libdispatch's manager and pool
        /// threads running.
        @Test func signalsStartNoThreadOfLibdispatch() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: nil)
            let pid = try #require(fixture.pid)
            let before = try ThreadSwitches.settled(pid)
            #expect(before.foreignThreads.isEmpty, "threads not the daemon's at rest: \(before.foreignThreads)")
            #expect(kill(pid, SIGHUP) == 0)
            try fixture.waitUntil("the reload a SIGHUP asks for") { fixture.log().contains("trigger=signal") }
            let woken = try Self.wakeUps(of: fixture)
            #expect(woken.isEmpty, "threads woke with nothing due after a SIGHUP: \(woken)")
            let after = try ThreadSwitches.settled(pid)
            #expect(after.foreignThreads.isEmpty, "threads not the daemon's after a SIGHUP: \(after.foreignThreads)")
            #expect(fixture.ctl("status").status == 0, "widgetd no longer answers after a SIGHUP")
            #expect(fixture.stop() == 0)
            #expect(fixture.log().contains("shutting down signal=SIGTERM"), "log: \(fixture.log().suffix(600))")
            #expect(fixture.log().contains("widgetd stopped"))
        }

        /// How every real daemon runs: started again on the state a previous run stored, with
        /// instances of both sorts, a stack and a donation. Reading that state back must leave
        /// nothing running either (libdispatch's pool, once started, wakes it every second).
        @Test func aRestartedDaemonWakesNoThread() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            // Answers one past entry and asks for no reload: nothing is ever due.
            try fixture.provider("still", """
                #!/bin/sh
                cat > /dev/null
                printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":"still"}],"policy":"never"}'
                """)
            try fixture.descriptor("test.provided", exec: ["./still"], intent: DaemonFixture.testIntent)
            try fixture.start(clock: nil)
            let pushed = try fixture.add("test.pushed", "slot=1")
            let provided = try fixture.add("test.provided")
            #expect(fixture.ctl(["push", pushed, "-"], stdin: Self.timeline).status == 0)
            try fixture.waitUntil("the provider's timeline of \(provided)") {
                fixture.ctl("timeline", provided).stdout.contains("still")
            }
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", pushed, provided).status == 0)
            #expect(fixture.ctl("donate", "TestConfiguration", "--set", "slot=1").status == 0)
            #expect(fixture.stop() == 0)

            try fixture.start(clock: nil)
            let restored = fixture.ctl("list").stdout
            #expect(restored.contains(pushed) && restored.contains(provided), "state not restored: \(restored)")
            #expect(fixture.ctl("stack", "show", "home").status == 0)

            let woken = try Self.wakeUps(of: fixture)
            #expect(woken.isEmpty, "threads of the restarted daemon woke with nothing due: \(woken)")
            let threads = try ThreadSwitches.settled(try #require(fixture.pid)).foreignThreads
            #expect(threads.isEmpty, "threads not the daemon's after a restart: \(threads)")
            #expect(!fixture.log().contains("tasks run on libdispatch's pool"))
        }

        /// A kiosk's web host with no browser on it: nothing is due, so no thread runs (its
        /// tasks on NIO's loops, no timer formatting the `Date` header every second).
        @Test func anIdleWebHostWakesNoThread() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: nil)
            let id = try fixture.add("test.pushed")
            #expect(fixture.ctl(["push", id, "-"], stdin: Self.timeline).status == 0)
            let host = try WebHostProcess(fixture)
            defer { host.stop() }
            // A browser loads the page and leaves.
            let page = try StreamConnection.get(port: host.port, "/")
            #expect(page.contains("<html"), "page: \(page.prefix(300))")

            let previous = try ThreadSwitches.settled(host.processIdentifier)
            usleep(3_000_000)
            let woken = previous.wakeUps(until: ThreadSwitches(host.processIdentifier))
            print("idle wake-ups of widgetd-web in 3 s: \(woken.count) thread(s) \(woken)")
            #expect(woken.isEmpty, "threads of widgetd-web woke with nothing to do: \(woken)")
            let threads = ThreadSwitches(host.processIdentifier).foreignThreads
            #expect(threads.isEmpty, "threads not widgetd-web's at rest: \(threads)")
            // SIGTERM, read by its signal thread, ends it gracefully.
            #expect(host.stop() == 0, "widgetd-web: \(host.log().suffix(600))")
        }

        /// Its entry holds a live date, which only hosts count on: neither widgetd nor the web
        /// host wakes for it.
        static let timeline = #"{"entries":[{"date":"2026-01-05T08:30:00Z","content":{"text":"old","#
            + #""leaves":{"$date":"2026-01-05T08:30:00Z","style":"timer"}}}],"policy":"never"}"#

        /// The threads that woke in 3 s once the daemon's threads have settled.
        static func wakeUps(of fixture: DaemonFixture) throws -> [String] {
            let pid = try #require(fixture.pid)
            let previous = try ThreadSwitches.settled(pid)
            usleep(3_000_000)
            let woken = previous.wakeUps(until: ThreadSwitches(pid))
            print("idle wake-ups in 3 s: \(woken.count) thread(s) \(woken)")
            return woken
        }
    }
}
