/// The sizes a widget can be placed in, named as in WidgetKit.
public enum WidgetFamily: String, Codable, Sendable, CaseIterable, Hashable {
    case systemSmall
    case systemMedium
    case systemLarge
    case systemExtraLarge
    case accessoryCircular
    case accessoryRectangular
    case accessoryInline
}
