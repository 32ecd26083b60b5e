import WidgetStore

/// widgetd.conf could not be read or parsed (at start-up).
struct SettingsError: Error, CustomStringConvertible {
    var underlying: any Error
    var description: String { "\(underlying)" }
}
