import Foundation

/// Everything the daemon keeps of one placed widget: the instance, its timeline, what hosts show
/// of it, its reload timing, its relevance, its stored request, its matched donations, its
/// failures and its rate windows.
///
/// Removing an instance is `DaemonState.removeInstance`: it takes the record out of the
/// `InstanceBook`, whose derived indexes (the visible set, the donation matches, the clues
/// in use) follow its records, and the instance's slot out of the `ReloadScheduler`, which holds only where its
/// reload and next entry change are in the schedule (the scheduler reads and writes the
/// record's `timing` through the book). The stacks that hold it are stored rows of their own,
/// changed by the same plan.
///
/// A record is held for every instance, so it is kept small: what most instances
/// never have (relevance, a stored request, matched donations, a failure streak, rate windows)
/// lives in one optional box, and the last time shown is a bare number.
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
    /// What its next reload is worked out from (policy date, merged request, budget history,
    /// whether a launch runs). Set when the record is made (a restart reads it back); once the
    /// record is in the book, changed only by the scheduler through `InstanceBook`'s
    /// `changeTiming`, so that its slot is always where this puts it.
    public internal(set) var timing = ReloadTiming()
    private var rare: RareFields?

    public init(instance: WidgetInstance) {
        self.instance = instance
    }

    /// When a host last showed it.
    public var lastVisible: Date? {
        get { lastVisibleSeconds == -.infinity ? nil : Date(timeIntervalSinceReferenceDate: lastVisibleSeconds) }
        set { lastVisibleSeconds = newValue?.timeIntervalSinceReferenceDate ?? -.infinity }
    }

    /// Since when no host has shown it: its last time shown while no host's report has it,
    /// nil while one has or none ever showed it. The scheduler orders its reload by this with
    /// `timing` (a budgeted reload is held, then its daily limit lowered, the longer it is hidden).
    public var hiddenSince: Date? { visible ? nil : lastVisible }

    /// What the scheduler places its reload by.
    public var reloadFacts: ReloadFacts { ReloadFacts(timing: timing, hiddenSince: hiddenSince) }

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

    /// When its provider was last asked for fresh relevance, for `relevance-per-hour`. Kept in
    /// memory only: a restart forgets at most an hour of asks.
    public var relevanceAsks: [Date] {
        get { rare?.relevanceAsks ?? [] }
        _modify {
            let fields = uniqueRare()
            yield &fields.relevanceAsks
            dropRareIfEmpty()
        }
    }

    /// When its last exempt reloads after an action were asked, for `action-reloads-per-minute`.
    /// In memory only, as `relevanceAsks`.
    public var actionReloads: [Date] {
        get { rare?.actionReloads ?? [] }
        _modify {
            let fields = uniqueRare()
            yield &fields.actionReloads
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
