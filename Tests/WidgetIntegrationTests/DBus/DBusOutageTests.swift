import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// widgetd and its bus going away under each other: the socket is served throughout, and
    /// the D-Bus interface comes back.
    @Suite struct DBusOutages {
        @Test(.needs(PrivateBus.unavailable))
        func aRestartedDaemonServesAClientThatStayedConnected() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture)
            let id = try fixture.add("com.example.random-number")
            let output = fixture.directory + "/monitor.log"
            let monitor = try bus.monitor(output: output)
            defer {
                kill(monitor.processIdentifier, SIGTERM)
                monitor.waitUntilExit()
            }
            try PrivateBus.waitFor(["Monitoring signals from all objects owned by \(PrivateBus.name)"], in: output)

            #expect(fixture.stop() == 0)
            try Poll.until("the name to be released when widgetd stops") { !bus.widgetdOwnsName }
            try bus.start(widgetd: fixture)
            // The monitor, connected all along, gets the new daemon's signals.
            let timeline = #"{"entries":[{"date":"2026-01-05T09:00:00Z","content":{"number":7}}],"policy":"never"}"#
            #expect(fixture.ctl(["push", id, "-"], stdin: timeline).status == 0)
            try PrivateBus.waitFor(["EntryChanged ('\(id)', 'com.example.random-number')"], in: output)
            // And a client's next call is answered from the restored state.
            let listed = try #require(try bus.callJSON("GetCurrentConfigurations").first as? [[String: Any]])
            #expect(listed.compactMap { ($0["id"] as? [String: Any])?["data"] as? String } == [id])
        }

        @Test(.needs(PrivateBus.unavailable))
        func withoutItsBusWidgetdServesTheSocketAndComesBackOnTheBus() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture)
            let id = try fixture.add("com.example.random-number")

            bus.kill()
            try fixture.waitUntil("widgetd to log the lost connection") { !fixture.logLines(containing: "D-Bus connection lost").isEmpty }
            #expect(fixture.ctl("status").status == 0)
            #expect(fixture.ctl("reload", "--instance", id).status == 0)

            // Tried again after 1 s, then twice as long each time: back within a few seconds.
            try bus.start()
            try Poll.until("widgetd owning its name on the restarted bus", within: 60) { bus.widgetdOwnsName }
            #expect(try bus.callJSON("ReloadInstances", "asb", ["1", id, "true"]).first as? [String] == [id])
            #expect(!fixture.logLines(containing: "D-Bus connection back").isEmpty)
        }

        @Test(.needs(PrivateBus.unavailable))
        func aBusThatIsNotThereAtStartIsLoggedAndTheSocketServed() throws {
            let fixture = try DaemonFixture()
            let missing = fixture.directory + "/no-bus"
            try fixture.start(arguments: ["--dbus", "session"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + missing])
            try fixture.waitUntil("widgetd to log the bus it cannot reach") { !fixture.logLines(containing: "cannot connect to the session bus").isEmpty }
            #expect(fixture.ctl("status").status == 0)
        }

        /// As `IdleWakeUps`, with the bus connection open: it wakes nothing while nothing happens.
        @Test(.needs(PrivateBus.unavailable))
        func anIdleDaemonOnTheBusWakesNoThread() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture, clock: nil)
            let id = try fixture.add("com.example.random-number")
            #expect(fixture.ctl(["push", id, "-"], stdin: IdleWakeUps.timeline).status == 0)
            #expect(bus.call("GetCurrentConfigurations").status == 0)
            let woken = try IdleWakeUps.wakeUps(of: fixture)
            #expect(woken.isEmpty, "threads woke with nothing due: \(woken)")
        }
    }
}
