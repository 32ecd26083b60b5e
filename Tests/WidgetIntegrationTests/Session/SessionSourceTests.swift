import Foundation
import Glibc
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The session's services, mocked by python3-dbusmock on a private bus widgetd takes as the
    /// system bus: each one's value reaches the engine (`widgetctl context`), a missing one is
    /// unknown, and one that comes or goes is followed.
    @Suite struct SessionSources {
        @Test func withNoServiceEverySourceIsMissingAndEveryValueUnknown() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            try session.startWidgetd()
            for source in ["logind", "upower", "power-profiles", "bluez", "geoclue"] {
                try session.waitForSource(source, "missing")
            }
            for name in ["session", "idle", "power", "power-profile", "headphones"] {
                #expect(session.value(name) == nil, "\(name): \(session.context())")
            }
            #expect(session.value("location") == "unknown")
        }

        @Test func logindsLockAndIdleHintsOfTheSeatedSessionsReachTheEngine() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            let path = try Self.addSession(logind, "c1", uid: 1000)
            try session.startWidgetd()
            try session.waitForSource("logind", "available")
            try session.waitFor("session", "unlocked")

            try logind.call(path, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["true"])
            try session.waitFor("session", "locked")
            try logind.update(path, "org.freedesktop.login1.Session", ["1", "IdleHint", "b", "true"])
            try session.waitFor("idle", "true")

            // A second seated session, unlocked: someone may be looking, so not locked.
            let second = try Self.addSession(logind, "c2", uid: 1001)
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "SessionNew", "so", ["2", "s", "c2", "o", second])
            try session.waitFor("session", "unlocked")
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "SessionRemoved", "so", ["2", "s", "c2", "o", second])
            try session.waitFor("session", "locked")
        }

        /// A user's service counts only that user's sessions (here root's, the test's own uid).
        @Test func aUsersServiceCountsOnlyItsOwnSessions() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            let other = try Self.addSession(logind, "c1", uid: 1000)
            try logind.call(other, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["true"])
            try session.startWidgetd(arguments: ["--user-service"])
            try session.waitForSource("logind", "available")
            #expect(session.value("session") == nil, "another user's session counted: \(session.context())")

            let own = try Self.addSession(logind, "c2", uid: Int(getuid()))
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "SessionNew", "so", ["2", "s", "c2", "o", own])
            try session.waitFor("session", "unlocked")
            try logind.call(own, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["true"])
            try session.waitFor("session", "locked")
        }

        @Test func upowersBatteryAndThePowerProfileReachTheEngine() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let upower = try session.upower(onBattery: false)
            let profiles = try session.powerProfiles()
            try session.startWidgetd()
            try session.waitFor("power", "ac")
            try session.waitFor("power-profile", "balanced")

            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "true"])
            try session.waitFor("power", "battery")
            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "false"])
            try session.waitFor("power", "ac")

            try profiles.call(
                "/net/hadess/PowerProfiles", "org.freedesktop.DBus.Properties", "Set", "ssv",
                ["net.hadess.PowerProfiles", "ActiveProfile", "s", "power-saver"])
            try session.waitFor("power-profile", "power-saver")

            // UPower goes away: its value is unknown again; it comes back and is read afresh.
            try upower.stop()
            try session.waitForSource("upower", "missing")
            #expect(session.value("power") == nil)
            try upower.start()
            try session.waitForSource("upower", "available")
            try session.waitFor("power", "ac")
        }

        @Test func aConnectedHeadsetIsHeadphones() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let bluez = try session.bluez()
            try bluez.helper("AddAdapter", "ss", ["hci0", "laptop"])
            let device = try Self.path(bluez.helper("AddDevice", "sss", ["hci0", "11:22:33:44:55:66", "Buds"]))
            let phone = try Self.path(bluez.helper("AddDevice", "sss", ["hci0", "11:22:33:44:55:77", "Phone"]))
            try bluez.update(phone, "org.bluez.Device1", ["1", "Icon", "s", "phone"])
            try session.startWidgetd()
            try session.waitFor("headphones", "false")

            // A phone connecting is not headphones.
            try bluez.helper("ConnectDevice", "ss", ["hci0", "11:22:33:44:55:77"])
            try bluez.update(device, "org.bluez.Device1", ["1", "Icon", "s", "audio-headset"])
            #expect(session.value("headphones") == "false")
            try bluez.helper("ConnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try session.waitFor("headphones", "true")
            try bluez.helper("DisconnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try session.waitFor("headphones", "false")
        }

        /// A session owned by `uid` on seat0; returns its object path.
        static func addSession(_ logind: SessionMock, _ id: String, uid: Int) throws -> String {
            try path(logind.helper("AddSession", "ssusb", [id, "seat0", String(uid), "user\(uid)", "true"]))
        }

        /// The object path in busctl's `s "/..."` or `o "/..."` answer.
        static func path(_ answer: String) throws -> String {
            guard let start = answer.firstIndex(of: "\""), let end = answer.lastIndex(of: "\""), start < end else {
                throw FixtureError("no object path in busctl's answer '\(answer)'")
            }
            return String(answer[answer.index(after: start)..<end])
        }
    }
}
