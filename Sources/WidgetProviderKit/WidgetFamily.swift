/// The size a widget instance is placed in, named as in WidgetKit.
public enum WidgetFamily: String, Codable, CaseIterable, Hashable, Sendable {
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline
}
