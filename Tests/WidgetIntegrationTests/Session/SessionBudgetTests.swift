import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The budget follows the session as its sources report it (python3-dbusmock on a private
    /// system bus, widgetd on the virtual clock): a locked session and power-saver hold budgeted
    /// reloads until they end, and the battery lowers the daily limit.
    @Suite struct SessionBudgets {
        /// widgetd on `session`'s bus with one counter instance (a budgeted reload about every
        /// 5 min), once its first load is in.
        static func counter(_ session: SessionBus) throws -> String {
            let fixture = session.fixture
            try fixture.counterWidget()
            try session.startWidgetd(clock: DaemonFixture.virtualStart)
            let id = try fixture.add("test.counter")
            try fixture.waitUntil("the first load of \(id)") { fixture.launches().count == 1 }
            return id
        }

        static func budget(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            fixture.ctl("--json", "budget", id).object
        }

        static func scheduled(_ fixture: DaemonFixture, _ id: String) -> [String: Any]? {
            fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id }
        }

        @Test func aLockedSessionHoldsBudgetedReloadsAndUnlockingRunsThem() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            let path = try SessionSources.addSession(logind, "c1", uid: 1000)
            let id = try Self.counter(session)
            try session.waitFor("session", "unlocked")

            try logind.call(path, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["true"])
            try session.waitFor("session", "locked")
            #expect(fixture.ctl("clock", "advance", "20m").status == 0)
            #expect(fixture.launches().count == 1, "reloads ran while locked: \(fixture.launches())")
            #expect(Self.scheduled(fixture, id)?["reason"] as? String == "locked", "schedule: \(fixture.ctl("schedule").stdout)")
            #expect(Self.budget(fixture, id)["held"] as? String == "locked")
            // The text forms say why, and when the reload runs.
            let budget = fixture.ctl("budget", id).stdout
            #expect(budget.contains("budgeted reloads held now: the session is locked; runs when it unlocks"), "\(budget)")
            let schedule = fixture.ctl("schedule").stdout
            #expect(schedule.contains("reload held: the session is locked; runs when it unlocks"), "\(schedule)")

            try logind.call(path, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["false"])
            try fixture.waitUntil("the held reload to run at unlock; launches: \(fixture.launches())") { fixture.launches().count == 2 }
            #expect(Self.budget(fixture, id)["held"] == nil)
        }

        @Test func theBatteryLowersTheLimitAndACRestoresIt() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let upower = try session.upower(onBattery: false)
            let id = try Self.counter(session)
            try session.waitFor("power", "ac")
            #expect(Self.budget(fixture, id)["limit"] as? Int == 70)
            #expect(Self.budget(fixture, id)["loweredBy"] == nil)

            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "true"])
            try session.waitFor("power", "battery")
            let lowered = Self.budget(fixture, id)
            #expect(lowered["limit"] as? Int == 35, "\(lowered)")
            #expect(lowered["fullLimit"] as? Int == 70)
            #expect(lowered["loweredBy"] as? [String] == ["battery"])
            let text = fixture.ctl("budget", id).stdout
            #expect(text.contains("of 35 budgeted reloads used in the last 24 h (lowered from 70: on battery)"), "\(text)")

            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "false"])
            try session.waitFor("power", "ac")
            #expect(Self.budget(fixture, id)["limit"] as? Int == 70)
        }

        @Test func powerSaverHoldsBudgetedReloadsUntilTheProfileChanges() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let profiles = try session.powerProfiles()
            let id = try Self.counter(session)
            try session.waitFor("power-profile", "balanced")

            try Self.setProfile(profiles, "power-saver")
            try session.waitFor("power-profile", "power-saver")
            #expect(fixture.ctl("clock", "advance", "20m").status == 0)
            #expect(fixture.launches().count == 1, "reloads ran in power-saver: \(fixture.launches())")
            #expect(Self.scheduled(fixture, id)?["reason"] as? String == "power-saver", "schedule: \(fixture.ctl("schedule").stdout)")
            let budget = fixture.ctl("budget", id).stdout
            #expect(budget.contains("the power profile is power-saver; runs when it changes"), "\(budget)")

            try Self.setProfile(profiles, "balanced")
            try fixture.waitUntil("the held reload to run once the profile changed; launches: \(fixture.launches())") {
                fixture.launches().count == 2
            }
        }

        static func setProfile(_ profiles: SessionMock, _ profile: String) throws {
            try profiles.call(
                "/net/hadess/PowerProfiles", "org.freedesktop.DBus.Properties", "Set", "ssv",
                ["net.hadess.PowerProfiles", "ActiveProfile", "s", profile])
        }
    }
}
