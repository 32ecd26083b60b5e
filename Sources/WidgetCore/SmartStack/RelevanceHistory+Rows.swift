import Foundation

/// How an instance's settled relevance samples changed, for a store that keeps them as one
/// row per sample keyed by date: a reload appends the samples its old timeline left and
/// deletes those that expired or were outscored, instead of rewriting the whole history.
/// (The current timeline's samples are its entries, which the store keeps already.)
public struct RelevanceRowChange: Sendable, Hashable {
    /// Dates of the settled samples that are gone.
    public var removed: [Date] = []
    /// Settled samples that are new (or changed at a date already stored).
    public var added: [RelevanceSample] = []

    public init(removed: [Date] = [], added: [RelevanceSample] = []) {
        self.removed = removed
        self.added = added
    }

    public var isEmpty: Bool { removed.isEmpty && added.isEmpty }
}

extension RelevanceHistory {
    /// What changed among the settled samples since `old`. Both lists are in date order with
    /// one sample per date, so one merge pass finds the difference.
    public func settledChange(since old: RelevanceHistory) -> RelevanceRowChange {
        var change = RelevanceRowChange()
        var i = old.settled.startIndex
        var j = settled.startIndex
        while i < old.settled.endIndex, j < settled.endIndex {
            let before = old.settled[i]
            let after = settled[j]
            if before.date == after.date {
                if before != after { change.added.append(after) }
                i += 1
                j += 1
            } else if before.date < after.date {
                change.removed.append(before.date)
                i += 1
            } else {
                change.added.append(after)
                j += 1
            }
        }
        change.removed += old.settled[i...].map(\.date)
        change.added += settled[j...]
        return change
    }
}
