import Foundation
import WidgetCore

// Params and results of each method. Results may grow new fields; scripts rely on the ones
// named in docs/protocol.md.

public struct TimelineResult: Codable, Sendable {
    public var instance: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var entries: [WidgetEntry]
    public var policy: ReloadPolicy?
    public var currentIndex: Int?
    public var currentEntry: WidgetEntry?
    public var nextEntryChange: Date?
    public var nextReload: ScheduledReload?
    public var receivedAt: Date?
    /// Why the last reload failed, if it did (the timeline shown is the previous good one).
    public var lastError: String?
    /// An action was performed and the reload after it has not ended.
    public var invalidated: Bool?
    /// Why the instance is not loaded, as in `InstanceInfo.failure` (then also `lastError`).
    public var failure: String?
    public init(
        instance: InstanceID, kind: String, family: WidgetFamily, entries: [WidgetEntry], policy: ReloadPolicy?,
        currentIndex: Int?, currentEntry: WidgetEntry?, nextEntryChange: Date?, nextReload: ScheduledReload?,
        receivedAt: Date?, lastError: String?
    ) {
        self.instance = instance
        self.kind = kind
        self.family = family
        self.entries = entries
        self.policy = policy
        self.currentIndex = currentIndex
        self.currentEntry = currentEntry
        self.nextEntryChange = nextEntryChange
        self.nextReload = nextReload
        self.receivedAt = receivedAt
        self.lastError = lastError
    }
}

public struct PushParams: Codable, Sendable, Equatable {
    public var id: InstanceID
    public var timeline: WidgetTimeline
    public init(id: InstanceID, timeline: WidgetTimeline) {
        self.id = id
        self.timeline = timeline
    }
}

public struct PushResult: Codable, Sendable {
    public var instance: InstanceID
    public var entries: Int
    public var nextReload: Date?
    public init(instance: InstanceID, entries: Int, nextReload: Date?) {
        self.instance = instance
        self.entries = entries
        self.nextReload = nextReload
    }
}

/// `reloadTimelines(ofKind:)` for kinds, and for single instances (which WidgetKit cannot
/// ask): at least one of the two lists is named.
public struct ReloadTimelinesParams: Codable, Sendable, Equatable {
    public var kinds: [String]
    public var instances: [InstanceID]?
    public var userInitiated: Bool?
    public init(kinds: [String] = [], instances: [InstanceID]? = nil, userInitiated: Bool? = nil) {
        self.kinds = kinds
        self.instances = instances
        self.userInitiated = userInitiated
    }

    private enum CodingKeys: String, CodingKey { case kinds, instances, userInitiated }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kinds = try container.decodeIfPresent([String].self, forKey: .kinds) ?? []
        instances = try container.decodeIfPresent([InstanceID].self, forKey: .instances)
        userInitiated = try container.decodeIfPresent(Bool.self, forKey: .userInitiated)
    }
}

public struct ReloadAllParams: Codable, Sendable, Equatable {
    public var userInitiated: Bool?
    public init(userInitiated: Bool? = nil) { self.userInitiated = userInitiated }
}

public struct ReloadResult: Codable, Sendable {
    /// Instances now due; a request that duplicates a pending one is included once.
    public var instances: [InstanceID]
    public init(instances: [InstanceID]) { self.instances = instances }
}

/// One pending reload, as `schedule` lists it.
public struct ScheduleItem: Codable, Sendable {
    public var instance: InstanceID
    public var kind: String
    public var due: Date
    public var wanted: Date
    public var reason: ReloadReason
    /// `budget` when the budget moved `due` past `wanted`; `hidden`, `locked` or `power-saver`
    /// when the reload is held for that cause; nil otherwise.
    public var deferredBy: String?
    public var inFlight: Bool
    /// For a held reload (`reason` `hidden`, `locked` or `power-saver`): why it would run
    /// (`policy`, `requested`, `retry`) once the hold ends.
    public var heldReason: ReloadReason?
    public init(_ reload: ScheduledReload) {
        instance = reload.instance
        kind = reload.kind
        due = reload.due
        wanted = reload.wanted
        reason = reload.reason
        deferredBy = reload.heldReason != nil ? reload.reason.rawValue : reload.deferredByBudget ? "budget" : nil
        inFlight = reload.inFlight
        heldReason = reload.heldReason
    }
}

public struct BudgetResult: Codable, Sendable {
    public var instance: InstanceID
    public var enabled: Bool
    public var used: Int
    public var limit: Int
    public var spacing: TimeInterval
    public var lastReload: Date?
    /// When the next budgeted reload may run (nil: now).
    public var nextAllowed: Date?
    public var pending: ScheduleItem?
    /// When a host last showed the instance (absent: never), and whether one shows it now.
    public var lastShown: Date?
    public var shown: Bool?
    /// The daily limit without the lowering for an instance no host has shown in 24 hours,
    /// or for the battery; present only when `limit` is lowered.
    public var fullLimit: Int?
    /// Why `limit` is lowered: `battery`, `hidden` (no host has shown it in 24 hours), or both;
    /// absent when it is not.
    public var loweredBy: [String]?
    /// Why its budgeted reloads are held now: `locked`, `power-saver` or `hidden`; absent
    /// while they may run.
    public var held: ReloadReason?
    public init(
        instance: InstanceID, enabled: Bool, used: Int, limit: Int, spacing: TimeInterval, lastReload: Date?,
        nextAllowed: Date?, pending: ScheduleItem?, lastShown: Date? = nil, shown: Bool? = nil, fullLimit: Int? = nil
    ) {
        self.lastShown = lastShown
        self.shown = shown
        self.fullLimit = fullLimit
        self.instance = instance
        self.enabled = enabled
        self.used = used
        self.limit = limit
        self.spacing = spacing
        self.lastReload = lastReload
        self.nextAllowed = nextAllowed
        self.pending = pending
    }
}
