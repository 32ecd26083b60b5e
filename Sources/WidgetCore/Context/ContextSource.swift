/// The services widgetd reads the session's context from.
public enum ContextSource: String, Sendable, CaseIterable, Codable {
    case logind
    case upower
    case powerProfiles = "power-profiles"
    case geoclue
    case bluez
}
