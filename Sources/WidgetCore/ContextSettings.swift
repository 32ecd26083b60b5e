/// The session's context sources (`[context]` in widgetd.conf, docs/context.md).
public struct ContextSettings: Sendable, Hashable, Codable {
    /// Whether widgetd may ask GeoClue2 for the location (`location = on|off`). On, GeoClue is
    /// asked only while some instance's timeline uses a location clue.
    public var location = true

    public init() {}

    mutating func set(key: String, value: String, line: Int) throws(SettingsError) {
        switch key {
        case "location":
            switch value {
            case "on": location = true
            case "off": location = false
            default: throw SettingsError(line: line, reason: "location: '\(value)' is not on or off")
            }
        default:
            throw SettingsError(line: line, reason: "unknown key '\(key)' in [context]")
        }
    }
}
