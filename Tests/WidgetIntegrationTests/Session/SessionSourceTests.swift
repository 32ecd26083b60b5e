import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The session's services, mocked by python3-dbusmock on a private bus widgetd takes as the
    /// system bus: each one's value reaches the engine, a missing one is unknown, and one that
    /// comes or goes is followed.
    @Suite struct SessionSources {
        @Test func withNoServiceEverySourceIsMissingAndEveryValueUnknown() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            try session.startWidgetd()
            for reading in ["source logind=missing", "source upower=missing", "source power-profiles=missing",
                            "source bluez=missing", "source geoclue=missing", "locked=unknown", "onBattery=unknown",
                            "powerProfile=unknown", "headphones=unknown", "location=unknown"] {
                try session.waitForReading(reading)
            }
            #expect(fixture.ctl("status").status == 0)
        }

        @Test func logindsLockAndIdleHintsOfTheSeatedSessionsReachTheEngine() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            let path = try Self.addSession(logind, "c1", uid: 1000)
            try session.startWidgetd()
            try session.waitForReading("source logind=present")
            try session.waitForReading("locked=false")

            try logind.call(path, "org.freedesktop.login1.Session", "SetLockedHint", "b", ["true"])
            try session.waitForReading("locked=true")
            try logind.update(path, "org.freedesktop.login1.Session", ["1", "IdleHint", "b", "true"])
            try session.waitForReading("idle=true")

            // A second seated session, unlocked: someone may be looking, so not locked.
            let second = try Self.addSession(logind, "c2", uid: 1001)
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "SessionNew", "so", ["2", "s", "c2", "o", second])
            try session.waitForReading("locked=false", count: 2)
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "SessionRemoved", "so", ["2", "s", "c2", "o", second])
            try session.waitForReading("locked=true", count: 2)
            #expect(fixture.ctl("status").status == 0)
        }

        @Test func upowersBatteryAndThePowerProfileReachTheEngine() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let upower = try session.upower(onBattery: false)
            let profiles = try session.powerProfiles()
            try session.startWidgetd()
            try session.waitForReading("onBattery=false")
            try session.waitForReading("powerProfile=balanced")

            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "true"])
            try session.waitForReading("onBattery=true")
            try upower.update("/org/freedesktop/UPower", "org.freedesktop.UPower", ["1", "OnBattery", "b", "false"])
            try session.waitForReading("onBattery=false", count: 2)

            try profiles.call(
                "/net/hadess/PowerProfiles", "org.freedesktop.DBus.Properties", "Set", "ssv",
                ["net.hadess.PowerProfiles", "ActiveProfile", "s", "power-saver"])
            try session.waitForReading("powerProfile=power-saver")

            // UPower goes away: its value is unknown again; it comes back and is read afresh.
            try upower.stop()
            try session.waitForReading("source upower=missing")
            try session.waitForReading("onBattery=unknown", count: 2)
            try upower.start()
            try session.waitForReading("source upower=present", count: 2)
            try session.waitForReading("onBattery=false", count: 3)
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
            try session.waitForReading("headphones=false")

            // A phone connecting is not headphones.
            try bluez.helper("ConnectDevice", "ss", ["hci0", "11:22:33:44:55:77"])
            try bluez.update(device, "org.bluez.Device1", ["1", "Icon", "s", "audio-headset"])
            try bluez.helper("ConnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try session.waitForReading("headphones=true")
            #expect(session.readings().filter { $0.hasPrefix("headphones=") } == ["headphones=unknown", "headphones=false", "headphones=true"])
            try bluez.helper("DisconnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try session.waitForReading("headphones=false", count: 2)
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
