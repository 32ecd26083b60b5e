import Foundation

/// What ranking read of one instance's relevance at an evaluation, kept with the stack so the
/// next evaluation can skip reading the history again while it provably says the same.
///
/// An affinity slot makes most stacks with donations due every 15 minutes, and without the
/// memo each of those evaluations would walk every member's relevance history again although
/// nothing in it had changed. `RelevanceHistory.nextChange` bounds how long the score in force and the relative
/// relevance hold, so both are kept until then. Affinity is not kept: it changes at every slot.
public struct RankingMemo: Sendable {
    public var instance: InstanceID
    /// The record's out-of-line fields when read (`InstanceRecord.rankingStamp`). Holding the
    /// box keeps it shared, so any later change to the record's relevance or matched donations
    /// copies it first (`InstanceRecord.uniqueRare`): the same box means the same inputs.
    /// nil for inputs a plan supplied, which are not yet the record's.
    let stamp: RareFields?
    let reusable: Bool
    public var matchedDonations: [LocalDonation]
    /// Read at `from` with this window, they hold until `until` (nil: until something changes).
    public var from: Date
    public var window: TimeInterval
    public var until: Date?
    public var current: CurrentRelevance?
    public var relative: Double

    /// Reads `input` at `now`; `stamp` is the record's box when the input is the record's own.
    init(_ input: RankingInput, at now: Date, window: TimeInterval, stamp: RareFields?, reusable: Bool) {
        instance = input.instance
        self.stamp = stamp
        self.reusable = reusable
        matchedDonations = input.matchedDonations
        from = now
        self.window = window
        until = input.history.nextChange(after: now, window: window)
        current = input.history.current(at: now)
        relative = input.history.relative(at: now, window: window)
    }

    /// Whether this memo tells what reading `instance` anew at `now` would, given the record's
    /// box now.
    func holds(for instance: InstanceID, stamp: RareFields?, at now: Date, window: TimeInterval) -> Bool {
        reusable && self.instance == instance && self.stamp === stamp && self.window == window && from <= now
            && (until.map { now < $0 } ?? true)
    }
}
