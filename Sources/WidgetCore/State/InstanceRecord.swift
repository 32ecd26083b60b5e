import Foundation

/// Everything the daemon knows about one placed widget, in one place: removing an instance
/// removes its record, and nothing else needs to be kept in step.
///
/// A record is held per instance, a million of them, so it is kept small: what most instances
/// never have (relevance, a stored request, matched donations, a failure streak) lives in one
/// optional box, and the last time shown is a bare number.
public struct InstanceRecord: Sendable, Hashable {
    public var instance: WidgetInstance
    /// In the last `visible` report of a host. (Declared right after `instance`, it fills the
    /// padding at the instance's end.)
    public var visible = false
    public var timeline: StoredTimeline?
    /// Seconds since the reference date; -infinity when never shown (a value equal to itself,
    /// unlike NaN, so records still compare equal).
    private var lastVisibleSeconds = -Double.infinity
    /// The change number of the last `push` or `configure`: a provider answer to a launch that
    /// started before it answers an older question and is dropped.
    public var replaced: UInt64 = 0
    private var rare: RareFields?

    public init(instance: WidgetInstance) {
        self.instance = instance
    }

    /// When a host last showed it.
    public var lastVisible: Date? {
        get { lastVisibleSeconds == -.infinity ? nil : Date(timeIntervalSinceReferenceDate: lastVisibleSeconds) }
        set { lastVisibleSeconds = newValue?.timeIntervalSinceReferenceDate ?? -.infinity }
    }

    /// Its relevance scores over time; empty for most instances.
    public var relevance: RelevanceHistory {
        get { rare?.relevance ?? RelevanceHistory() }
        _modify {
            let fields = uniqueRare()
            yield &fields.relevance
            dropRareIfEmpty()
        }
    }

    /// The reload asked for and not yet carried out, as stored (so a restart carries it out).
    public var request: StoredRequest? {
        get { rare?.request }
        _modify {
            let fields = uniqueRare()
            yield &fields.request
            dropRareIfEmpty()
        }
    }

    /// The donations its configuration matches, oldest first; kept only while the instance is
    /// in a stack, where ranking reads them at every evaluation.
    public var matched: [LocalDonation] {
        get { rare?.matched ?? [] }
        _modify {
            let fields = uniqueRare()
            yield &fields.matched
            dropRareIfEmpty()
        }
    }

    /// The run of identical provider failures it is in, if any: the last one's message is
    /// `lastError`.
    public var failures: FailureStreak? {
        get { rare?.failures }
        _modify {
            let fields = uniqueRare()
            yield &fields.failures
            dropRareIfEmpty()
        }
    }

    /// Set from an action's `perform` until the reload after it ends: what the host shows is
    /// out of date (WidgetKit's invalidatable content).
    public var invalidation: Invalidation? {
        get { rare?.invalidation }
        _modify {
            let fields = uniqueRare()
            yield &fields.invalidation
            dropRareIfEmpty()
        }
    }

    /// The box of the fields ranking reads (relevance, matched donations): while something else
    /// holds it, any change to them puts a new box here first (see `RankingMemo`).
    var rankingStamp: RareFields? { rare }

    /// Why the last reload failed, while the previous timeline is shown.
    public var lastError: String? { failures?.message }

    public var id: InstanceID { instance.id }
    public var kind: String { instance.kind }

    /// The box, made or copied first so that changing it changes no other record.
    private mutating func uniqueRare() -> RareFields {
        if rare == nil {
            rare = RareFields()
        } else if !isKnownUniquelyReferenced(&rare!) {
            rare = rare!.copy()
        }
        return rare!
    }

    private mutating func dropRareIfEmpty() {
        if rare?.isEmpty == true { rare = nil }
    }
}

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

    init() {}

    var isEmpty: Bool { relevance.isEmpty && request == nil && matched.isEmpty && failures == nil && invalidation == nil }

    func copy() -> RareFields {
        let copy = RareFields()
        copy.relevance = relevance
        copy.request = request
        copy.matched = matched
        copy.failures = failures
        copy.invalidation = invalidation
        return copy
    }

    static func == (lhs: RareFields, rhs: RareFields) -> Bool {
        lhs.relevance == rhs.relevance && lhs.request == rhs.request && lhs.matched == rhs.matched && lhs.failures == rhs.failures
            && lhs.invalidation == rhs.invalidation
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(relevance)
        hasher.combine(request)
        hasher.combine(matched)
        hasher.combine(failures)
        hasher.combine(invalidation)
    }
}
