import Foundation

/// One change to durable state.
public enum StoreChange: Sendable {
    case putInstance(WidgetInstance)
    /// Removes the instance with its timeline, requests and reload history.
    case deleteInstance(InstanceID)
    case putTimeline(InstanceID, WidgetTimeline, receivedAt: Date)
    /// A reload that ran; budgeted ones count against the budget after a restart.
    case recordReload(InstanceID, date: Date, reason: ReloadReason, budgeted: Bool)
    /// Forgets reload history older than the budget window.
    case pruneReloads(before: Date)
    /// A reload that was asked for and not yet carried out (so a crash does not lose it).
    /// `sequence` increases with every request, so a launch deletes exactly what it consumed.
    case putRequest(InstanceID, reason: ReloadReason, wanted: Date, sequence: Int64)
    /// Forgets the request a launch carried out; a request made while it ran (a newer
    /// sequence) stays.
    case deleteRequest(InstanceID, sequence: Int64)
    /// A stack with its members in order and its rotation state.
    case putStack(StackState)
    case deleteStack(String)
    case putDonation(Donation)
    /// Keeps the newest `keep` donations by date (of equal dates, the last recorded).
    case pruneDonations(keep: Int)
    /// Deletes donations by identifier, by group, or all (both nil).
    case deleteDonations(id: String?, group: String?)
    case appendDecision(RotationDecision)
    /// Keeps the newest `keep` decisions (at most: never more).
    case pruneDecisions(keep: Int)
    /// An instance's settled relevance samples changed (docs/smart-stacks.md): rows
    /// appended and deleted, never the whole history rewritten. The current timeline's
    /// samples are its entries, stored with `putTimeline`.
    case updateRelevance(InstanceID, RelevanceRowChange)
    /// When a host last showed the instance.
    case putVisibility(InstanceID, lastVisible: Date)
    /// The current samples of an instance's relevance history came from its provider's
    /// `relevance` verb rather than from its timeline's entries: kept until a new timeline
    /// replaces them (`putTimeline` drops them).
    case putFreshRelevance(InstanceID, [RelevanceSample])
}

/// Everything needed to rebuild the daemon after a restart.
public struct PersistedState: Sendable {
    /// In placement order (created, then id).
    public var instances: [WidgetInstance] = []
    /// The timeline of each of `instances`, at the same index (nil: none); a restart looks up
    /// nothing by id for a million of them.
    public var timelines: [StoredTimeline?] = []
    /// Budgeted reload dates per instance, oldest first.
    public var budgetedReloads: [InstanceID: [Date]] = [:]
    public var requests: [InstanceID: StoredRequest] = [:]
    public var stacks: [StackState] = []
    public var donations: [Donation] = []
    /// Settled relevance samples per instance, in date order (`RelevanceHistory.settled`).
    public var settledRelevance: [InstanceID: [RelevanceSample]] = [:]
    public var lastVisible: [InstanceID: Date] = [:]
    /// Relevance a provider gave since the instance's timeline (`putFreshRelevance`), in date order.
    public var freshRelevance: [InstanceID: [RelevanceSample]] = [:]
    /// Rows that did not decode and were left out (each reported once at start-up).
    public var quarantined: [QuarantinedRow] = []
    /// Instances left out because a row of theirs did not decode, in placement order.
    public var failedInstances: [FailedInstance] = []

    public init() {}

    /// The timeline stored for `id`: a walk through every instance, for tests and tools.
    public func timeline(of id: InstanceID) -> StoredTimeline? {
        instances.firstIndex { $0.id == id }.flatMap { $0 < timelines.count ? timelines[$0] : nil }
    }
}

public struct StoredTimeline: Sendable, Hashable {
    public var timeline: WidgetTimeline
    public var receivedAt: Date

    public init(timeline: WidgetTimeline, receivedAt: Date) {
        self.timeline = timeline
        self.receivedAt = receivedAt
    }
}

public struct StoredRequest: Sendable, Hashable {
    public var reason: ReloadReason
    public var wanted: Date
    public var sequence: Int64

    public init(reason: ReloadReason, wanted: Date, sequence: Int64) {
        self.reason = reason
        self.wanted = wanted
        self.sequence = sequence
    }
}
