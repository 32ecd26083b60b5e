import Foundation

/// The fields of a record that most instances never set, kept out of line.
///
/// Changed only through `InstanceRecord.uniqueRare()`, i.e. while no other record refers to it,
/// so records sharing a box (copies) never see it change: that is why it may be Sendable.
final class RareFields: @unchecked Sendable, Hashable {
    var relevance = RelevanceHistory()
    var request: StoredRequest?
    var matched: [LocalDonation] = []
    var failures: FailureStreak?
    var invalidation: Invalidation?
    var relevanceAsks: [Date] = []
    var actionReloads: [Date] = []

    init() {}

    var isEmpty: Bool {
        relevance.isEmpty && request == nil && matched.isEmpty && failures == nil && invalidation == nil && relevanceAsks.isEmpty
            && actionReloads.isEmpty
    }

    func copy() -> RareFields {
        let copy = RareFields()
        copy.relevance = relevance
        copy.request = request
        copy.matched = matched
        copy.failures = failures
        copy.invalidation = invalidation
        copy.relevanceAsks = relevanceAsks
        copy.actionReloads = actionReloads
        return copy
    }

    static func == (lhs: RareFields, rhs: RareFields) -> Bool {
        lhs.relevance == rhs.relevance && lhs.request == rhs.request && lhs.matched == rhs.matched && lhs.failures == rhs.failures
            && lhs.invalidation == rhs.invalidation && lhs.relevanceAsks == rhs.relevanceAsks
            && lhs.actionReloads == rhs.actionReloads
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(relevance)
        hasher.combine(request)
        hasher.combine(matched)
        hasher.combine(failures)
        hasher.combine(invalidation)
        hasher.combine(relevanceAsks)
        hasher.combine(actionReloads)
    }
}
