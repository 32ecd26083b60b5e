import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Reloads that follow what is seen, on the virtual clock: a budgeted reload of an instance
    /// no host has shown for `hidden-after` is held (reason `hidden` in `schedule`) and runs
    /// when a host shows the instance again; one hidden for a day gets the lowered daily limit.
    @Suite struct HiddenReloads {
        func config(_ fixture: DaemonFixture, _ text: String) throws -> String {
            let path = fixture.directory + "/widgetd.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func budget(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            fixture.ctl("--json", "budget", id).object
        }

        @Test func aHiddenInstancesReloadsWaitForAHostToShowIt() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start(arguments: ["--config", try config(fixture, "[budget]\nhidden-after = 1h\n")])
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("visible", id).status == 0)
            #expect(fixture.ctl("visible").status == 0)  // hidden from now on
            // Its timeline ends every 2 minutes; the budget spaces reloads 5 minutes apart.
            #expect(fixture.ctl("clock", "advance", "2h").status == 0)
            let used = budget(fixture, id)["used"] as? Int ?? -1
            #expect((10...13).contains(used), "budgeted reloads in the first hour: \(used)")
            let held = try #require(fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id })
            #expect(held["reason"] as? String == "hidden")
            #expect(held["heldReason"] as? String == "policy")
            #expect(held["deferredBy"] as? String == "hidden")
            let table = fixture.ctl("schedule").stdout
            #expect(table.contains("policy reload held: no host has shown it lately"), "\(table)")
            #expect(fixture.ctl("clock", "advance", "3h").status == 0)
            #expect(budget(fixture, id)["used"] as? Int == used, "a held reload ran")
            // A restart keeps when it was last shown, so the reload stays held.
            #expect(fixture.stop() == 0)
            try fixture.start(clock: "2026-01-05T13:00:30Z", arguments: ["--config", fixture.directory + "/widgetd.conf"])
            #expect(fixture.ctl("--json", "schedule").array.first?["reason"] as? String == "hidden")

            // Refresh on reveal.
            #expect(fixture.ctl("visible", id).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(budget(fixture, id)["used"] as? Int == used + 1)
            #expect(budget(fixture, id)["shown"] as? Bool == true)
            let next = fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id }
            #expect(next?["reason"] as? String == "policy")
        }

        @Test func aHostsStackShowRevealsTheTop() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start(arguments: ["--config", try config(fixture, "[budget]\nhidden-after = 1h\n")])
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", id).status == 0)
            #expect(fixture.ctl("stack", "show", "home").status == 0)
            #expect(fixture.ctl("clock", "advance", "3h").status == 0)
            let used = budget(fixture, id)["used"] as? Int ?? -1
            #expect(fixture.ctl("--json", "schedule").array.first?["reason"] as? String == "hidden")
            #expect(fixture.ctl("stack", "show", "home").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(budget(fixture, id)["used"] as? Int == used + 1)
        }

        @Test func aDayHiddenLowersTheDailyLimit() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            // Holds off: the lowered limit alone governs the hidden widget.
            let settings = "[budget]\nhidden-after = 0\nhidden-daily-limit = 3\n"
            try fixture.start(arguments: ["--config", try config(fixture, settings)])
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("visible", id).status == 0)
            #expect(fixture.ctl("visible").status == 0)
            #expect(fixture.ctl("clock", "advance", "23h").status == 0)
            #expect(budget(fixture, id)["limit"] as? Int == 70)
            #expect(fixture.ctl("clock", "advance", "2h").status == 0)
            let lowered = budget(fixture, id)
            #expect(lowered["limit"] as? Int == 3)
            #expect(lowered["fullLimit"] as? Int == 70)
            #expect(fixture.ctl("budget", id).stdout.contains("(lowered from 70: no host has shown it in 24 h)"))
            // A day later only three reloads ran in its last 24 hours.
            #expect(fixture.ctl("clock", "advance", "24h").status == 0)
            #expect(budget(fixture, id)["used"] as? Int == 3)
        }
    }
}
