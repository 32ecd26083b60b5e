import Testing
import WidgetCore
@testable import WidgetDaemon

/// The watchers' pure part: what the services say, folded into readings, without a bus.
@Suite struct SessionTrackerTests {
    static let lock: [String: JSONValue] = ["LockedHint": .bool(true)]
    static let unlock: [String: JSONValue] = ["LockedHint": .bool(false)]

    @Test func everySourceStartsMissingAndEveryValueUnknown() {
        var tracker = SessionTracker(scope: .system)
        let first = tracker.apply([])
        #expect(first.count == ContextSource.allCases.count + 6)
        #expect(first.contains(.source(.logind, available: false)))
        #expect(first.contains(.locked(nil)) && first.contains(.headphones(nil)) && first.contains(.location(nil)))
        #expect(tracker.apply([]).isEmpty, "nothing changed: nothing to hand over")
    }

    @Test func lockedWhenEverySeatedSessionOfTheScopeIs() {
        var tracker = SessionTracker(scope: .user(uid: 1000))
        _ = tracker.apply([])
        let appeared = tracker.apply([
            .appeared(.logind),
            .session(path: "/s/1", uid: 1000, seated: true),
            .session(path: "/s/ssh", uid: 1000, seated: false),
            .session(path: "/s/other", uid: 1001, seated: true),
        ])
        #expect(appeared == [.source(.logind, available: true), .locked(false), .idle(false)])
        #expect(tracker.apply(.sessionProperties(path: "/s/1", Self.lock)) == [.locked(true)])
        // Another user's session and a remote one do not count for a user's service.
        #expect(tracker.apply(.sessionProperties(path: "/s/other", Self.unlock)).isEmpty)
        #expect(tracker.apply(.session(path: "/s/2", uid: 1000, seated: true)) == [.locked(false)])
        #expect(tracker.apply(.sessionProperties(path: "/s/2", Self.lock)) == [.locked(true)])
        #expect(tracker.apply(.sessionRemoved(path: "/s/2")).isEmpty)
        #expect(tracker.apply(.sessionRemoved(path: "/s/1")) == [.locked(nil), .idle(nil)])
    }

    @Test func theSystemServiceCountsEveryUsersSessions() {
        var tracker = SessionTracker(scope: .system)
        _ = tracker.apply([.appeared(.logind), .session(path: "/a", uid: 1000, seated: true), .session(path: "/b", uid: 1001, seated: true)])
        #expect(tracker.apply(.sessionProperties(path: "/a", Self.lock)).isEmpty)
        #expect(tracker.apply(.sessionProperties(path: "/b", Self.lock)) == [.locked(true)])
    }

    @Test func aServiceThatGoesAwayIsUnknownAndIsReadAfreshWhenBack() {
        var tracker = SessionTracker(scope: .system)
        _ = tracker.apply([.appeared(.upower), .upower(["OnBattery": .bool(true)])])
        #expect(tracker.readings.contains(.onBattery(true)))
        #expect(tracker.apply(.vanished(.upower)) == [.source(.upower, available: false), .onBattery(nil)])
        // Back, but not read yet: still unknown.
        #expect(tracker.apply(.appeared(.upower)) == [.source(.upower, available: true)])
        #expect(tracker.apply(.upower(["OnBattery": .bool(false)])) == [.onBattery(false)])
    }

    @Test func thePowerProfile() {
        var tracker = SessionTracker(scope: .system)
        _ = tracker.apply([])
        #expect(tracker.apply([.appeared(.powerProfiles), .powerProfiles(["ActiveProfile": .string("power-saver")])])
            == [.source(.powerProfiles, available: true), .powerProfile("power-saver")])
        #expect(tracker.apply(.powerProfiles(["PerformanceDegraded": .string("")])).isEmpty)
    }

    @Test func headphonesWhileAConnectedDeviceIsAHeadset() {
        var tracker = SessionTracker(scope: .system)
        _ = tracker.apply([.appeared(.bluez)])
        #expect(tracker.readings.contains(.headphones(false)))
        #expect(tracker.apply(.device(path: "/d/phone", ["Connected": .bool(true), "Icon": .string("phone")])).isEmpty)
        #expect(tracker.apply(.device(path: "/d/buds", ["Icon": .string("audio-headphones")])).isEmpty)
        #expect(tracker.apply(.device(path: "/d/buds", ["Connected": .bool(true)])) == [.headphones(true)])
        #expect(tracker.apply(.deviceRemoved(path: "/d/buds")) == [.headphones(false)])
    }

    @Test func aHeadsetByItsClassOfDevice() {
        // Major class Audio/Video (4): minor 1 wearable headset, 6 headphones, 2 hands-free.
        func device(_ minor: UInt32) -> BluetoothDevice {
            var device = BluetoothDevice()
            device.deviceClass = 0x20_0000 | (4 << 8) | (minor << 2)
            return device
        }
        #expect(device(1).isHeadset && device(6).isHeadset)
        #expect(!device(2).isHeadset && !device(5).isHeadset)
        #expect(!BluetoothDevice().isHeadset)
    }

    @Test func trackedObjectsAreBounded() {
        var tracker = SessionTracker(scope: .system, maxTrackedObjects: 8)
        _ = tracker.apply([.appeared(.bluez)])
        for index in 0..<18 {
            _ = tracker.apply(.device(path: "/d/\(index)", ["Connected": .bool(false)]))
        }
        #expect(tracker.devices.count == 8)
    }

    @Test func aLocationIsKeptOnlyWhileGeoClueIsThere() {
        var tracker = SessionTracker(scope: .system)
        let point = GeoPoint(latitude: 52.52, longitude: 13.405, accuracy: 20)
        _ = tracker.apply([.appeared(.geoclue)])
        #expect(tracker.apply(.location(point)) == [.location(point)])
        #expect(tracker.apply(.vanished(.geoclue)) == [.source(.geoclue, available: false), .location(nil)])
    }
}
