/// A switch in `widgetd.conf`: `on` or `off` (`true`/`false` and `yes`/`no` read the same).
enum SettingsFlag {
    static func parse(key: String, value: String, line: Int) throws(SettingsError) -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw SettingsError(line: line, reason: "\(key): '\(value)' is not on or off")
        }
    }
}
