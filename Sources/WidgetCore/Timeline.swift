import Foundation

/// `TimelineEntryRelevance`: a score relative to the same widget's other scores, and how long
/// it applies (0 = until the next entry that carries relevance).
public struct EntryRelevance: Codable, Sendable, Hashable {
    public var score: Double
    public var duration: TimeInterval

    public init(score: Double, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        score = try container.decode(Double.self, forKey: .score)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        guard score.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .score, in: container, debugDescription: "score must be finite")
        }
        guard duration.isFinite, duration >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container, debugDescription: "duration must be a number of seconds >= 0")
        }
    }
}

/// One entry of a timeline: the content a host shows from `date` on.
///
/// Content is opaque to the daemon, so it is held as its compact JSON text (sorted keys)
/// rather than a decoded tree: a million instances of five entries each would otherwise
/// spend more memory on dictionaries and enum boxes than on the content itself. `content`
/// decodes on demand, for answers and events.
public struct TimelineEntry: Sendable, Hashable {
    public var date: Date
    public var contentJSON: String
    public var relevance: EntryRelevance?
    /// Buttons a host may `perform` while this entry is shown; empty for most entries.
    public var actions: [EntryAction]

    public init(date: Date, content: JSONValue, relevance: EntryRelevance? = nil, actions: [EntryAction] = []) {
        self.date = date
        self.contentJSON = Self.text(of: content)
        self.relevance = relevance
        self.actions = actions
    }

    /// From text already known to be compact JSON (the store's own rows).
    public init(date: Date, contentJSON: String, relevance: EntryRelevance? = nil, actions: [EntryAction] = []) {
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
    public func action(_ id: String) -> EntryAction? {
        actions.first { $0.id == id }
    }

    private static func text(of content: JSONValue) -> String {
        (try? String(decoding: WidgetJSON.encoder.encode(content), as: UTF8.self)) ?? "null"
    }
}

extension TimelineEntry: Codable {
    private enum CodingKeys: String, CodingKey { case date, content, relevance, actions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let content = try container.decodeIfPresent(JSONValue.self, forKey: .content) ?? .null
        let actions = try container.decodeIfPresent([EntryAction].self, forKey: .actions) ?? []
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

/// When a timeline wants new data: the SDK's type, so both sides read and write one coding.
public typealias ReloadPolicy = TimelineReloadPolicy

/// Entries plus a reload policy. Entries are sorted by date on arrival; the sort is stable
/// and, for equal dates, the later entry in the input wins (docs/overview.md).
///
/// Held as one buffer (`TimelineStorage`); `entries` reads `TimelineEntry` values out of it.
public struct Timeline: Sendable {
    private(set) var storage: TimelineStorage

    public init(entries: [TimelineEntry], policy: ReloadPolicy) {
        let entries = Timeline.normalised(entries)
        let hasRelevance = entries.contains { $0.relevance != nil }
        let contentBytes = entries.reduce(0) { $0 + $1.contentJSON.utf8.count }
        let actionTexts = entries.contains { !$0.actions.isEmpty } ? entries.map(\.actions.storedText) : nil
        let actionBytes = actionTexts?.reduce(0) { $0 + $1.utf8.count } ?? 0
        storage = TimelineStorage.make(
            count: entries.count, contentBytes: contentBytes, hasRelevance: hasRelevance, actionBytes: actionTexts == nil ? nil : actionBytes,
            policy: policy
        ) { writer in
            var end = 0
            var actionsEnd = 0
            for (index, entry) in entries.enumerated() {
                var content = entry.contentJSON
                content.withUTF8 { writer.copyContent(from: UnsafeRawBufferPointer($0), at: end) }
                end += content.utf8.count
                writer.set(index, date: entry.date.timeIntervalSinceReferenceDate, end: end)
                if hasRelevance { writer.set(index, relevance: entry.relevance) }
                if var text = actionTexts?[index] {
                    text.withUTF8 { writer.copyActions(from: UnsafeRawBufferPointer($0), at: actionsEnd) }
                    actionsEnd += text.utf8.count
                    writer.set(index, actionsEnd: actionsEnd)
                }
            }
        }
    }

    init(storage: TimelineStorage) {
        self.storage = storage
    }

    public var entries: TimelineEntries { TimelineEntries(storage: storage) }

    public var policy: ReloadPolicy {
        get { storage.policy }
        set { storage = storage.replacingPolicy(newValue) }
    }

    /// Sorted by date, the last of equal dates kept.
    private static func normalised(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        // Already strictly increasing (the store's rows, most providers): nothing to do.
        if zip(entries, entries.dropFirst()).allSatisfy({ $0.date < $1.date }) { return entries }
        let sorted = entries.enumerated().sorted { lhs, rhs in
            lhs.element.date != rhs.element.date ? lhs.element.date < rhs.element.date : lhs.offset < rhs.offset
        }
        // Keep only the last of each run of equal dates.
        var result: [TimelineEntry] = []
        result.reserveCapacity(sorted.count)
        for (_, entry) in sorted {
            if let last = result.last, last.date == entry.date {
                result[result.count - 1] = entry
            } else {
                result.append(entry)
            }
        }
        return result
    }

    /// The index of the entry shown at `now`: the greatest date <= now, or the first entry
    /// when all lie in the future. Nil only for an empty timeline.
    public func currentIndex(at now: Date) -> Int? {
        let count = storage.count
        guard count > 0 else { return nil }
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if storage.date(at: mid) <= now { low = mid + 1 } else { high = mid }
        }
        return max(low - 1, 0)
    }

    public func currentEntry(at now: Date) -> TimelineEntry? {
        currentIndex(at: now).map { entries[$0] }
    }

    /// The first entry date strictly after `now`: when the shown entry next changes.
    public func nextEntryDate(after now: Date) -> Date? {
        guard let index = currentIndex(at: now) else { return nil }
        let date = storage.date(at: index)
        if date > now { return date }
        let next = index + 1
        return next < storage.count ? storage.date(at: next) : nil
    }

    /// The date the policy wants new data (docs/overview.md): the last entry's
    /// date for `atEnd` (an empty timeline is due at once, `now`), the given date for `after`,
    /// nil for `never`.
    public func policyDate(receivedAt now: Date) -> Date? {
        switch policy {
        case .atEnd: return storage.count > 0 ? storage.date(at: storage.count - 1) : now
        case .after(let date): return date
        case .never: return nil
        }
    }
}

extension Timeline: Hashable {
    public static func == (lhs: Timeline, rhs: Timeline) -> Bool {
        lhs.storage.hasSameEntries(as: rhs.storage)
    }

    public func hash(into hasher: inout Hasher) {
        storage.hash(into: &hasher)
    }
}

extension Timeline: Codable {
    private enum CodingKeys: String, CodingKey { case entries, policy }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([TimelineEntry].self, forKey: .entries)
        let policy = try container.decodeIfPresent(ReloadPolicy.self, forKey: .policy) ?? .atEnd
        self.init(entries: entries, policy: policy)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Array(entries), forKey: .entries)
        try container.encode(policy, forKey: .policy)
    }
}
