/// `[context]` of `widgetd.conf`: which session sources widgetd reads (docs/clues.md).
public struct ContextSettings: Sendable, Hashable, Codable {
    /// Whether the location source runs at all. Off, GeoClue is never started, the location
    /// stays unknown and no location clue holds.
    public var location = true

    public init() {}

    /// One `key = value` line of `[context]`.
    mutating func set(key: String, value: String, line: Int) throws(SettingsError) {
        switch key {
        case "location": location = try SettingsFlag.parse(key: key, value: value, line: line)
        default: throw SettingsError(line: line, reason: "unknown key '\(key)' in [context]")
        }
    }
}
