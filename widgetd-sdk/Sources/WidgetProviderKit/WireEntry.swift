import Foundation
import WidgetWire

/// An entry as widgetd reads it: `{"date", "content", "relevance"?, "actions"?}`.
///
/// The content is the entry encoded through its own `Encodable` conformance, minus the `date`,
/// `relevance` and `actions` keys, which have places of their own. An entry that encodes to something
/// other than an object (a custom `encode(to:)`) keeps that value as its content.
struct WireEntry: Encodable, Sendable {
    let date: Date
    let content: JSONValue
    // Encoded from the Float itself, not through JSONValue, so 0.8 prints as 0.8.
    let relevance: TimelineEntryRelevance?
    let actions: [WireAction]

    init(_ entry: some TimelineEntry) throws {
        date = entry.date
        relevance = entry.relevance
        actions = try entry.actions.map(WireAction.init)
        var ids = Set<String>()
        for action in actions where !ids.insert(action.id).inserted {
            throw WidgetProviderError.badEntry("\(type(of: entry)): two actions have the id '\(action.id)'")
        }
        var content: JSONValue
        do {
            let data = try WidgetJSON.encoder.encode(entry)
            content = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
        } catch {
            throw WidgetProviderError.badEntry("\(type(of: entry)): \(error)")
        }
        if case .object(var fields) = content {
            fields["date"] = nil
            fields["relevance"] = nil
            fields["actions"] = nil
            content = .object(fields)
        }
        self.content = content
    }

    private enum CodingKeys: String, CodingKey { case date, content, relevance, actions }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // ISO 8601 text whatever the encoder's date strategy: Timeline JSON requires it.
        try container.encode(ISO8601.string(from: date), forKey: .date)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        if !actions.isEmpty { try container.encode(actions, forKey: .actions) }
    }
}
