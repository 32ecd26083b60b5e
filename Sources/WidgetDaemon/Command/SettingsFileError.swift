/// widgetd.conf could not be read or parsed (at start-up).
struct SettingsFileError: Error, CustomStringConvertible {
    var underlying: any Error
    var description: String { "\(underlying)" }
}
