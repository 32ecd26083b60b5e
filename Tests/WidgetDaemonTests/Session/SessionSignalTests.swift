import Testing
import WidgetCore
@testable import WidgetDaemon

/// What a signal means, read from its member and args as the bus thread decodes them.
@Suite struct SessionSignalTests {
    static func signal(_ interface: String, _ member: String, _ args: [JSONValue], path: String = "/") -> SessionSignal {
        SessionSignal(path: path, interface: interface, member: member, args: args)
    }

    @Test func ownersAreFollowed() {
        let owner = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", [.string("org.bluez"), .string(""), .string(":1.5")])
        #expect(owner.meaning == .ownerChanged(.bluez, present: true, hadOwner: false))
        let gone = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", [.string("org.bluez"), .string(":1.5"), .string("")])
        #expect(gone.meaning == .ownerChanged(.bluez, present: false, hadOwner: true))
        let replaced = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", [.string("org.bluez"), .string(":1.5"), .string(":1.9")])
        #expect(replaced.meaning == .ownerChanged(.bluez, present: true, hadOwner: true))
        let other = Self.signal("org.freedesktop.DBus", "NameOwnerChanged", [.string("org.example"), .string(""), .string(":1.6")])
        #expect(other.meaning == .ignored)
    }

    @Test func logindsSignals() {
        #expect(Self.signal(SessionNames.logindManager, "PrepareForSleep", [.bool(true)]).meaning == .prepareForSleep(true))
        #expect(Self.signal(SessionNames.logindManager, "SessionNew", [.string("3"), .string("/s/3")]).meaning == .sessionNew(path: "/s/3"))
        #expect(Self.signal(SessionNames.logindManager, "SessionRemoved", [.string("3"), .string("/s/3")]).meaning == .events([.sessionRemoved(path: "/s/3")]))
        let changed = Self.signal(
            SessionNames.properties, "PropertiesChanged", [.string(SessionNames.logindSession), .object(["LockedHint": .bool(true)]), .array([])],
            path: "/s/3")
        #expect(changed.meaning == .events([.sessionProperties(path: "/s/3", ["LockedHint": .bool(true)])]))
    }

    @Test func malformedArgsAreIgnored() {
        #expect(Self.signal(SessionNames.logindManager, "PrepareForSleep", [.string("yes")]).meaning == .ignored)
        #expect(Self.signal(SessionNames.properties, "PropertiesChanged", [.string(SessionNames.upower)]).meaning == .ignored)
        #expect(Self.signal(SessionNames.objectManager, "InterfacesAdded", [.string("/d")]).meaning == .ignored)
    }

    @Test func blueZsObjects() {
        let added = Self.signal(SessionNames.objectManager, "InterfacesAdded", [
            .string("/org/bluez/hci0/dev_1"), .object([SessionNames.bluezDevice: .object(["Icon": .string("audio-headset")])]),
        ])
        #expect(added.meaning == .events([.device(path: "/org/bluez/hci0/dev_1", ["Icon": .string("audio-headset")])]))
        let adapter = Self.signal(SessionNames.objectManager, "InterfacesAdded", [.string("/org/bluez/hci0"), .object(["org.bluez.Adapter1": .object([:])])])
        #expect(adapter.meaning == .ignored)
        let removed = Self.signal(SessionNames.objectManager, "InterfacesRemoved", [.string("/d"), .array([.string(SessionNames.bluezDevice)])])
        #expect(removed.meaning == .events([.deviceRemoved(path: "/d")]))
        let objects: JSONValue = .object([
            "/org/bluez/hci0": .object(["org.bluez.Adapter1": .object([:])]),
            "/org/bluez/hci0/dev_1": .object([SessionNames.bluezDevice: .object(["Connected": .bool(true)])]),
        ])
        #expect(SessionSignal.devices(managedObjects: objects) == [.device(path: "/org/bluez/hci0/dev_1", ["Connected": .bool(true)])])
    }

    @Test func logindsSessionList() {
        let listed: JSONValue = .array([
            .array([.string("1"), .integer(1000), .string("alice"), .string("seat0"), .string("/s/1")]),
            .array([.string("2"), .integer(1000), .string("alice"), .string(""), .string("/s/2")]),
            .array([.string("bad")]),
        ])
        #expect(SessionSignal.sessions(listed: listed) == [
            .session(path: "/s/1", uid: 1000, seated: true), .session(path: "/s/2", uid: 1000, seated: false),
        ])
    }

    @Test func geoCluesLocation() {
        let updated = Self.signal(SessionNames.geoclueClient, "LocationUpdated", [.string("/"), .string("/l/1")], path: "/c/7")
        #expect(updated.meaning == .locationUpdated(client: "/c/7", path: "/l/1"))
        let point = SessionSignal.point(.object(["Latitude": .number(52.5), "Longitude": .number(13.4), "Accuracy": .number(20)]))
        #expect(point == GeoPoint(latitude: 52.5, longitude: 13.4, accuracy: 20))
        #expect(SessionSignal.point(.object(["Latitude": .number(91), "Longitude": .number(0)])) == nil)
        #expect(SessionSignal.point(.object(["Latitude": .number(1)])) == nil)
    }
}
