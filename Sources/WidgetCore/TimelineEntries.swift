import Foundation

/// A timeline's entries in date order, read out of its buffer: each `WidgetEntry` (and its
/// content's `String`) is made when it is read, so reading dates alone allocates nothing.
public struct TimelineEntries: RandomAccessCollection, Sendable {
    let storage: TimelineStorage

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> WidgetEntry {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return WidgetEntry(
            date: storage.date(at: position), contentJSON: storage.contentJSON(at: position),
            relevance: storage.relevance(at: position), actions: storage.actions(at: position))
    }

    /// The date of entry `position`, without making its content.
    public func date(at position: Int) -> Date {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return storage.date(at: position)
    }

    /// The relevance of entry `position`, without making its content.
    public func relevance(at position: Int) -> EntryRelevance? {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return storage.relevance(at: position)
    }

    /// The actions of entry `position`, without making its content.
    public func actions(at position: Int) -> [WidgetAction] {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return storage.actions(at: position)
    }

    /// The bytes of entry `position`'s actions JSON (empty when it has none), for the store.
    public func withActionsJSON<Result>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return try storage.withActions(at: position, body)
    }

    /// Whether any entry has actions.
    public var haveActions: Bool { storage.hasActions }

    /// Whether any entry's relevance has context clues.
    public var haveClues: Bool { storage.hasClues }

    /// The kinds of clue the entries name.
    public var clueKinds: Set<ClueKind> {
        guard haveClues else { return [] }
        return indices.reduce(into: []) { kinds, index in
            if let when = relevance(at: index)?.when { kinds.formUnion(when.clueKinds) }
        }
    }

    /// The bytes of entry `position`'s content JSON, without making a `String`.
    public func withContentJSON<Result>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(position >= 0 && position < storage.count, "timeline entry index out of range")
        return try storage.withContent(at: position, body)
    }
}
