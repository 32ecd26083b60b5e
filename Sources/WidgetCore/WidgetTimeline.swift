import Foundation

/// When a timeline wants new data: the SDK's type, so both sides read and write one coding.
public typealias ReloadPolicy = TimelineReloadPolicy

/// Entries plus a reload policy. Entries are sorted by date on arrival; the sort is stable
/// and, for equal dates, the later entry in the input wins (docs/overview.md).
///
/// Held as one buffer (`TimelineStorage`); `entries` reads `WidgetEntry` values out of it.
public struct WidgetTimeline: Sendable {
    private(set) var storage: TimelineStorage

    public init(entries: [WidgetEntry], policy: ReloadPolicy) {
        let entries = WidgetTimeline.normalised(entries)
        let hasRelevance = entries.contains { $0.relevance != nil }
        let contentBytes = entries.reduce(0) { $0 + $1.contentJSON.utf8.count }
        let actionTexts = entries.contains { !$0.actions.isEmpty } ? entries.map(\.actions.storedText) : nil
        let actionBytes = actionTexts?.reduce(0) { $0 + $1.utf8.count } ?? 0
        let clues = entries.contains { $0.relevance?.when != nil } ? entries.map { $0.relevance?.when } : nil
        storage = TimelineStorage.make(
            count: entries.count, contentBytes: contentBytes, hasRelevance: hasRelevance, actionBytes: actionTexts == nil ? nil : actionBytes,
            policy: policy, clues: clues
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
    private static func normalised(_ entries: [WidgetEntry]) -> [WidgetEntry] {
        // Already strictly increasing (the store's rows, most providers): nothing to do.
        if zip(entries, entries.dropFirst()).allSatisfy({ $0.date < $1.date }) { return entries }
        let sorted = entries.enumerated().sorted { lhs, rhs in
            lhs.element.date != rhs.element.date ? lhs.element.date < rhs.element.date : lhs.offset < rhs.offset
        }
        // Keep only the last of each run of equal dates.
        var result: [WidgetEntry] = []
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

    public func currentEntry(at now: Date) -> WidgetEntry? {
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

extension WidgetTimeline: Hashable {
    public static func == (lhs: WidgetTimeline, rhs: WidgetTimeline) -> Bool {
        lhs.storage.hasSameEntries(as: rhs.storage)
    }

    public func hash(into hasher: inout Hasher) {
        storage.hash(into: &hasher)
    }
}

extension WidgetTimeline: Codable {
    private enum CodingKeys: String, CodingKey { case entries, policy }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([WidgetEntry].self, forKey: .entries)
        let policy = try container.decodeIfPresent(ReloadPolicy.self, forKey: .policy) ?? .atEnd
        self.init(entries: entries, policy: policy)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Array(entries), forKey: .entries)
        try container.encode(policy, forKey: .policy)
    }
}
