import WidgetCore

/// One thing a session service said, as `SessionTracker` takes it: decoded from a signal or
/// from the answer to a call (`SessionSignal.events`), with no bus left in it.
enum SessionEvent: Sendable, Equatable {
    /// The service's name got an owner (a start or a restart) or lost it.
    case appeared(ContextSource)
    case vanished(ContextSource)
    /// A logind session (listed, or `SessionNew`), its owner's uid and whether it has a seat.
    case session(path: String, uid: UInt32, seated: Bool)
    case sessionRemoved(path: String)
    /// `org.freedesktop.login1.Session` properties of a session.
    case sessionProperties(path: String, [String: JSONValue])
    /// `org.freedesktop.UPower` properties.
    case upower([String: JSONValue])
    /// `net.hadess.PowerProfiles` properties.
    case powerProfiles([String: JSONValue])
    /// `org.bluez.Device1` properties of a device (added, listed, or changed).
    case device(path: String, [String: JSONValue])
    case deviceRemoved(path: String)
    /// GeoClue's location (nil: none, or the client stopped).
    case location(GeoPoint?)
}
