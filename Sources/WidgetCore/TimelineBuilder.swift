import Foundation

/// Makes timelines from entries given one at a time, content as bytes (the store's rows, read
/// straight from SQLite's column memory): no `String` or `WidgetEntry` per entry, and one
/// builder's buffers serve every timeline it makes.
public struct TimelineBuilder: Sendable {
    private var dates: [Double] = []
    private var ends: [UInt32] = []
    private var relevance: [EntryRelevance?] = []
    private var content: [UInt8] = []
    private var actionEnds: [UInt32] = []
    private var actions: [UInt8] = []
    private var clues: [[ClueAlternative]?] = []
    private var hasClues = false
    private var hasRelevance = false
    private var hasActions = false
    private var increasing = true

    public init() {}

    public var isEmpty: Bool { dates.isEmpty }

    /// `actionsJSON`: the entry's actions as the store holds them (empty bytes: none).
    public mutating func append(
        date: Date, contentJSON bytes: UnsafeRawBufferPointer, relevance entryRelevance: EntryRelevance?,
        actionsJSON: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) {
        precondition(content.count + actions.count + bytes.count + actionsJSON.count <= TimelineStorage.maxContentBytes, "a timeline's content is limited to 4 GiB")
        let seconds = date.timeIntervalSinceReferenceDate
        if let last = dates.last, !(last < seconds) { increasing = false }
        dates.append(seconds)
        content.append(contentsOf: bytes)
        ends.append(UInt32(content.count))
        relevance.append(entryRelevance)
        if entryRelevance != nil { hasRelevance = true }
        clues.append(entryRelevance?.when)
        if entryRelevance?.when != nil { hasClues = true }
        actions.append(contentsOf: actionsJSON)
        actionEnds.append(UInt32(actions.count))
        if !actionsJSON.isEmpty { hasActions = true }
    }

    /// The timeline of the entries appended since the last one made, and starts afresh.
    public mutating func make(policy: ReloadPolicy) -> WidgetTimeline {
        defer { discard() }
        // Out of order (a store edited by hand): sorted as any new timeline is.
        guard increasing else { return WidgetTimeline(entries: madeEntries(), policy: policy) }
        let storage = content.withUnsafeBytes { contentBytes in
            actions.withUnsafeBytes { actionBytes in
                TimelineStorage.make(
                    count: dates.count, contentBytes: contentBytes.count, hasRelevance: hasRelevance,
                    actionBytes: hasActions ? actionBytes.count : nil, policy: policy, clues: hasClues ? clues : nil
                ) { writer in
                    writer.copyContent(from: contentBytes, at: 0)
                    if hasActions { writer.copyActions(from: actionBytes, at: 0) }
                    for index in dates.indices {
                        writer.set(index, date: dates[index], end: Int(ends[index]))
                        if hasRelevance { writer.set(index, relevance: relevance[index]) }
                        if hasActions { writer.set(index, actionsEnd: Int(actionEnds[index])) }
                    }
                }
            }
        }
        return WidgetTimeline(storage: storage)
    }

    private func madeEntries() -> [WidgetEntry] {
        content.withUnsafeBytes { contentBytes in
            actions.withUnsafeBytes { actionBytes in
                dates.indices.map { index in
                    let start = index == 0 ? 0 : Int(ends[index - 1])
                    let actionStart = index == 0 ? 0 : Int(actionEnds[index - 1])
                    return WidgetEntry(
                        date: Date(timeIntervalSinceReferenceDate: dates[index]),
                        contentJSON: String(decoding: UnsafeRawBufferPointer(rebasing: contentBytes[start..<Int(ends[index])]), as: UTF8.self),
                        relevance: relevance[index],
                        actions: [WidgetAction](storedText: UnsafeRawBufferPointer(rebasing: actionBytes[actionStart..<Int(actionEnds[index])])))
                }
            }
        }
    }

    /// Forgets the entries appended since the last timeline made.
    public mutating func discard() {
        dates.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        relevance.removeAll(keepingCapacity: true)
        clues.removeAll(keepingCapacity: true)
        hasClues = false
        content.removeAll(keepingCapacity: true)
        actionEnds.removeAll(keepingCapacity: true)
        actions.removeAll(keepingCapacity: true)
        hasRelevance = false
        hasActions = false
        increasing = true
    }
}
