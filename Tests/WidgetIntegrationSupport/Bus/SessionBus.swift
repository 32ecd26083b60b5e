import Foundation

/// A private bus that widgetd takes as the system bus (`DBUS_SYSTEM_BUS_ADDRESS`), where
/// tests put mocks of the session's services (`SessionMock`), and widgetd started on it with
/// `--context-bus system` on the real clock.
final class SessionBus {
    let fixture: DaemonFixture
    let bus: PrivateBus

    init(_ fixture: DaemonFixture) throws {
        if let unavailable = SessionMock.unavailable { throw FixtureError(unavailable) }
        self.fixture = fixture
        bus = try PrivateBus(in: fixture.directory + "/system-bus")
    }

    func logind(parameters: String? = nil) throws -> SessionMock {
        try SessionMock("logind", name: "org.freedesktop.login1", path: "/org/freedesktop/login1", on: bus, parameters: parameters)
    }

    func upower(onBattery: Bool = false) throws -> SessionMock {
        try SessionMock(
            "upower", name: "org.freedesktop.UPower", path: "/org/freedesktop/UPower", on: bus,
            parameters: #"{"OnBattery": \#(onBattery)}"#)
    }

    func powerProfiles() throws -> SessionMock {
        try SessionMock("power_profiles_daemon", name: "net.hadess.PowerProfiles", path: "/net/hadess/PowerProfiles", on: bus)
    }

    func bluez() throws -> SessionMock {
        try SessionMock("bluez5", name: "org.bluez", path: "/", on: bus, helpers: "org.bluez.Mock")
    }

    func geoclue() throws -> SessionMock {
        try SessionMock(GeoClueMock.template(in: bus.directory), name: "org.freedesktop.GeoClue2", path: GeoClueMock.manager, on: bus)
    }

    /// Starts widgetd reading this bus (real clock unless `clock` is given).
    func startWidgetd(clock: String? = nil, arguments: [String] = []) throws {
        try fixture.start(
            clock: clock, arguments: ["--context-bus", "system"] + arguments,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
    }
}
