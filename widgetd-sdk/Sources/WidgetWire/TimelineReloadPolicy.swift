import Foundation

/// When widgetd should ask the provider for a new timeline (WidgetKit's
/// `TimelineReloadPolicy`). Encodes as `"atEnd"`, `"never"` or `{"after": DATE}`
/// (docs/widgets.md): the SDK writes it and the daemon reads it through this one coding.
public enum TimelineReloadPolicy: Hashable, Sendable {
    /// Reload at the date of the last entry.
    case atEnd
    /// Reload at this date, whether it lies before or after the last entry.
    case after(Date)
    /// Reload only when an app asks (`WidgetCenter.shared.reloadTimelines(ofKind:)`).
    case never
}

extension TimelineReloadPolicy: Codable {
    private enum CodingKeys: String, CodingKey { case after }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer(), let name = try? container.decode(String.self) {
            switch name {
            case "atEnd": self = .atEnd
            case "never": self = .never
            default:
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "policy must be \"atEnd\", \"never\" or {\"after\": DATE}, not \"\(name)\"")
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .after(try container.decode(Date.self, forKey: .after))
    }

    /// The date as ISO 8601 text whatever the encoder's date strategy, so that a timeline an
    /// app encodes with its own `JSONEncoder` is still Timeline JSON.
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
            try container.encode(ISO8601.string(from: date), forKey: .after)
        }
    }
}
