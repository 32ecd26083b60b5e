import Foundation

/// An entry as widgetd reads it: `{"date", "content", "relevance"?, "actions"?}`.
public struct WireEntry: Encodable, Sendable, Hashable {
    public let date: Date
    public let content: JSONValue
    // Encoded from the Float itself, not through JSONValue, so 0.8 prints as 0.8.
    public let relevance: TimelineEntryRelevance?
    public let actions: [WireAction]

    public init(date: Date, content: JSONValue, relevance: TimelineEntryRelevance? = nil, actions: [WireAction] = []) {
        self.date = date
        self.content = content
        self.relevance = relevance
        self.actions = actions
    }

    private enum CodingKeys: String, CodingKey { case date, content, relevance, actions }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // ISO 8601 text whatever the encoder's date strategy: Timeline JSON requires it.
        try container.encode(ISO8601.string(from: date), forKey: .date)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        if !actions.isEmpty { try container.encode(actions, forKey: .actions) }
    }
}
