import Foundation
import WidgetWire

extension WireEntry {
    /// The content is the entry encoded through its own `Encodable` conformance, minus the
    /// `date`, `relevance` and `actions` keys, which have places of their own. An entry that
    /// encodes to something other than an object (a custom `encode(to:)`) keeps that value as
    /// its content.
    init(_ entry: some TimelineEntry) throws {
        let actions = try entry.actions.map(WireAction.init)
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
        self.init(date: entry.date, content: content, relevance: entry.relevance, actions: actions)
    }
}
