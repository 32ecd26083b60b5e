import Foundation

/// A live date in an entry the SDK writes (a stored property of an entry's type) is the content
/// value hosts read: `{"$date": "2026-01-05T08:12:00Z", "style": "timer"}`, the style always
/// written.
extension LiveDate: Encodable {
    private enum CodingKeys: String, CodingKey {
        case date = "$date"
        case style
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601.string(from: date), forKey: .date)
        try container.encode(style.rawValue, forKey: .style)
    }

    /// The value as content, for content built as `JSONValue`.
    public var json: JSONValue {
        .object(["$date": .string(ISO8601.string(from: date)), "style": .string(style.rawValue)])
    }
}
