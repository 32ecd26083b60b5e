import Foundation

/// When widgetd should ask the provider for a new timeline (WidgetKit's
/// `TimelineReloadPolicy`). Encodes as `"atEnd"`, `"never"` or `{"after": DATE}`.
public enum TimelineReloadPolicy: Hashable, Sendable {
    /// Reload at the date of the last entry.
    case atEnd
    /// Reload at this date, whether it lies before or after the last entry.
    case after(Date)
    /// Reload only when an app asks (`WidgetCenter.shared.reloadTimelines(ofKind:)`).
    case never
}

extension TimelineReloadPolicy: Encodable {
    private enum CodingKeys: String, CodingKey { case after }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .atEnd:
            var container = encoder.singleValueContainer()
            try container.encode("atEnd")
        case .never:
            var container = encoder.singleValueContainer()
            try container.encode("never")
        case .after(let date):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ISO8601Text.string(from: date), forKey: .after)
        }
    }
}
