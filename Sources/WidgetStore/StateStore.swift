import Foundation
import WidgetCore

/// Durable state. Every call to `apply` is one transaction: when it returns, the changes are
/// committed (and synced); when it throws, none of them are.
public protocol StateStore: Sendable {
    func load() async throws -> PersistedState
    func apply(_ changes: [StoreChange]) async throws
    /// Logged rotation decisions, oldest first: the newest `limit` of those matching.
    func decisions(stack: String?, since: Date?, limit: Int) async throws -> [RotationDecision]
}

/// One change to durable state.
public enum StoreChange: Sendable {
    case putInstance(WidgetInstance)
    /// Removes the instance with its timeline, requests and reload history.
    case deleteInstance(InstanceID)
    case putTimeline(InstanceID, Timeline, receivedAt: Date)
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
    /// An instance's settled relevance samples changed (semantics.md, Relevance 2): rows
    /// appended and deleted, never the whole history rewritten. The current timeline's
    /// samples are its entries, stored with `putTimeline`.
    case updateRelevance(InstanceID, RelevanceRowChange)
    /// When a host last showed the instance.
    case putVisibility(InstanceID, lastVisible: Date)
}

/// Everything needed to rebuild the daemon after a restart.
public struct PersistedState: Sendable {
    public var instances: [WidgetInstance] = []
    public var timelines: [InstanceID: StoredTimeline] = [:]
    /// Budgeted reload dates per instance, oldest first.
    public var budgetedReloads: [InstanceID: [Date]] = [:]
    public var requests: [InstanceID: StoredRequest] = [:]
    public var stacks: [StackState] = []
    public var donations: [Donation] = []
    /// Settled relevance samples per instance, in date order (`RelevanceHistory.settled`).
    public var settledRelevance: [InstanceID: [RelevanceSample]] = [:]
    public var lastVisible: [InstanceID: Date] = [:]

    public init() {}
}

public struct StoredTimeline: Sendable {
    public var timeline: Timeline
    public var receivedAt: Date

    public init(timeline: Timeline, receivedAt: Date) {
        self.timeline = timeline
        self.receivedAt = receivedAt
    }
}

public struct StoredRequest: Sendable {
    public var reason: ReloadReason
    public var wanted: Date
    public var sequence: Int64

    public init(reason: ReloadReason, wanted: Date, sequence: Int64) {
        self.reason = reason
        self.wanted = wanted
        self.sequence = sequence
    }
}

/// The state could not be opened or written; the message says what and where.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// Why: decides widgetd's exit status when the state cannot be opened at start-up.
    public var kind: StorageFaultKind
    /// A short name of the cause ("ENOSPC", "EROFS", "SQLITE_IOERR_FSYNC", ...), so that a
    /// fault is logged once however its messages vary; nil when there is no better one
    /// than the description.
    public var cause: String?
    public init(_ description: String, kind: StorageFaultKind = .other, cause: String? = nil) {
        self.description = description
        self.kind = kind
        self.cause = cause
    }
}
