import Foundation

/// One entry of a timeline: the content a host shows from `date` on.
///
/// Content is opaque to the daemon, so it is held as its compact JSON text (sorted keys)
/// rather than a decoded tree: a million instances of five entries each would otherwise
/// spend more memory on dictionaries and enum boxes than on the content itself. `content`
/// decodes on demand, for answers and events.
public struct WidgetEntry: Sendable, Hashable {
    public var date: Date
    public var contentJSON: String
    public var relevance: EntryRelevance?
    /// Buttons a host may `perform` while this entry is shown; empty for most entries.
    public var actions: [WidgetAction]

    public init(date: Date, content: JSONValue, relevance: EntryRelevance? = nil, actions: [WidgetAction] = []) {
        self.date = date
        self.contentJSON = Self.text(of: content)
        self.relevance = relevance
        self.actions = actions
    }

    /// From text already known to be compact JSON (the store's own rows).
    public init(date: Date, contentJSON: String, relevance: EntryRelevance? = nil, actions: [WidgetAction] = []) {
        self.date = date
        self.contentJSON = contentJSON
        self.relevance = relevance
        self.actions = actions
    }

    public var content: JSONValue {
        get { (try? WidgetJSON.decoder.decode(JSONValue.self, from: Data(contentJSON.utf8))) ?? .null }
        set { contentJSON = Self.text(of: newValue) }
    }

    /// The action named `id`, if the entry offers it.
    public func action(_ id: String) -> WidgetAction? {
        actions.first { $0.id == id }
    }

    private static func text(of content: JSONValue) -> String {
        (try? String(decoding: WidgetJSON.encoder.encode(content), as: UTF8.self)) ?? "null"
    }
}

extension WidgetEntry: Codable {
    private enum CodingKeys: String, CodingKey { case date, content, relevance, actions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? .null
        let actions = try container.decodeIfPresent([WidgetAction].self, forKey: .actions) ?? []
        if let repeated = actions.repeatedID {
            throw DecodingError.dataCorruptedError(
                forKey: .actions, in: container, debugDescription: "action id '\(repeated)' is used twice in one entry")
        }
        let date = try container.decode(Date.self, forKey: .date)
        let relevance = try container.decodeIfPresent(EntryRelevance.self, forKey: .relevance)
        guard Self.windowFits(date, relevance) else {
            throw DecodingError.dataCorruptedError(
                forKey: .relevance, in: container,
                debugDescription: "its window (date + duration) would end after \(SupportedDates.latestText)")
        }
        self.init(date: date, content: content, relevance: relevance, actions: actions)
    }

    /// A relevance window must end within `SupportedDates`, as every date widgetd shows does.
    public static func windowFits(_ date: Date, _ relevance: EntryRelevance?) -> Bool {
        guard let duration = relevance?.duration, duration > 0 else { return true }
        return duration < SupportedDates.end.timeIntervalSince(date)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(content, forKey: .content)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        if !actions.isEmpty { try container.encode(actions, forKey: .actions) }
    }
}
