import WidgetCore

/// A signal from the bus, as read on the watchers' thread: where it came from and its args as
/// JSON. `meaning` says what it tells, with no bus involved, so it is tested without one.
struct SessionSignal: Sendable, Equatable {
    var path: String
    var interface: String
    var member: String
    var args: [JSONValue]

    /// What a signal tells the watchers.
    enum Meaning: Sendable, Equatable {
        /// Feed these to the tracker.
        case events([SessionEvent])
        /// A name got an owner (read the service's state) or lost it; `hadOwner`: it had one
        /// before (a new owner then is a restart).
        case ownerChanged(ContextSource, present: Bool, hadOwner: Bool)
        /// A session appeared: read its uid, seat and hints.
        case sessionNew(path: String)
        /// logind's `PrepareForSleep`.
        case prepareForSleep(Bool)
        /// GeoClue moved `client` to a new location object: read it (when the client is
        /// widgetd's: every client's signal reaches every listener).
        case locationUpdated(client: String, path: String)
        case ignored
    }

    var meaning: Meaning {
        switch (interface, member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard args.count == 3, let name = args[0].stringValue, let source = SessionNames.source(busName: name),
                let old = args[1].stringValue, let owner = args[2].stringValue
            else { return .ignored }
            return .ownerChanged(source, present: !owner.isEmpty, hadOwner: !old.isEmpty)
        case (SessionNames.logindManager, "PrepareForSleep"):
            guard case .bool(let start)? = args.first else { return .ignored }
            return .prepareForSleep(start)
        case (SessionNames.logindManager, "SessionNew"):
            guard args.count == 2, let path = args[1].stringValue else { return .ignored }
            return .sessionNew(path: path)
        case (SessionNames.logindManager, "SessionRemoved"):
            guard args.count == 2, let path = args[1].stringValue else { return .ignored }
            return .events([.sessionRemoved(path: path)])
        case (SessionNames.properties, "PropertiesChanged"):
            guard args.count >= 2, let interface = args[0].stringValue, case .object(let changed) = args[1] else { return .ignored }
            switch interface {
            case SessionNames.logindSession: return .events([.sessionProperties(path: path, changed)])
            case SessionNames.upower: return .events([.upower(changed)])
            case SessionNames.powerProfiles: return .events([.powerProfiles(changed)])
            case SessionNames.bluezDevice: return .events([.device(path: path, changed)])
            default: return .ignored
            }
        case (SessionNames.objectManager, "InterfacesAdded"):
            guard args.count == 2, let object = args[0].stringValue, case .object(let interfaces) = args[1],
                case .object(let device)? = interfaces[SessionNames.bluezDevice]
            else { return .ignored }
            return .events([.device(path: object, device)])
        case (SessionNames.objectManager, "InterfacesRemoved"):
            guard args.count == 2, let object = args[0].stringValue, case .array(let names) = args[1],
                names.contains(.string(SessionNames.bluezDevice))
            else { return .ignored }
            return .events([.deviceRemoved(path: object)])
        case (SessionNames.geoclueClient, "LocationUpdated"):
            guard args.count == 2, let new = args[1].stringValue, new != "/" else { return .ignored }
            return .locationUpdated(client: path, path: new)
        default:
            return .ignored
        }
    }

    /// The devices of BlueZ's `GetManagedObjects` answer (`a{oa{sa{sv}}}`).
    static func devices(managedObjects answer: JSONValue?) -> [SessionEvent] {
        guard case .object(let objects)? = answer else { return [] }
        return objects.keys.sorted().compactMap { path in
            guard case .object(let interfaces)? = objects[path], case .object(let device)? = interfaces[SessionNames.bluezDevice] else {
                return nil
            }
            return .device(path: path, device)
        }
    }

    /// logind's `ListSessions` answer (`a(susso)`: id, uid, user, seat, path) as sessions.
    static func sessions(listed answer: JSONValue?) -> [SessionEvent] {
        guard case .array(let rows)? = answer else { return [] }
        return rows.compactMap { row in
            guard case .array(let fields) = row, fields.count == 5, case .integer(let uid) = fields[1],
                let seat = fields[3].stringValue, let path = fields[4].stringValue, let narrow = UInt32(exactly: uid)
            else { return nil }
            return .session(path: path, uid: narrow, seated: !seat.isEmpty)
        }
    }

    /// A GeoClue location object's properties as a point (nil when they are not all there).
    static func point(_ properties: JSONValue?) -> GeoPoint? {
        guard case .object(let values)? = properties, let latitude = number(values["Latitude"]),
            let longitude = number(values["Longitude"]), latitude.isFinite, longitude.isFinite,
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude, accuracy: number(values["Accuracy"]) ?? 0)
    }

    private static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number)?: number
        case .integer(let number)?: Double(number)
        default: nil
        }
    }
}
