import Foundation
import WidgetCore

// Params and results of each method. Results may grow new fields; scripts rely on the ones
// named in docs/protocol.md.

public struct PingResult: Codable, Sendable {
    public var daemon: String
    public var `protocol`: Int
    public init(daemon: String, protocol: Int) {
        self.daemon = daemon
        self.protocol = `protocol`
    }
}

public struct ClockInfo: Codable, Sendable {
    /// `real` or `virtual`.
    public var mode: String
    public var now: Date
    /// Events carried out by the `clock advance`/`clock set` that produced this answer.
    public var processed: Int?
    public init(mode: String, now: Date, processed: Int? = nil) {
        self.mode = mode
        self.now = now
        self.processed = processed
    }
}

public struct StatusResult: Codable, Sendable {
    public var daemon: String
    public var `protocol`: Int
    public var clock: ClockInfo
    public var kinds: Int
    public var instances: Int
    public var timelines: Int
    public var pendingReloads: Int
    public var providersRunning: Int
    public var nextWakeup: Date?
    public var budgetEnabled: Bool
    public var descriptorProblems: Int
    public var stateDirectory: String
    /// Connections streaming events (`subscribe`).
    public var subscribers: Int?
    /// Why state changes are refused: the last write's error, while writes fail (absent
    /// otherwise).
    public var storageError: String?
    /// Provider answers dropped because their instance was pushed to or configured after the
    /// launch began (a timeline is replaced only by one produced for a later request).
    public var droppedAnswers: Int?
    /// Instances not loaded because a stored row of theirs does not decode (absent when none):
    /// `list` shows each with its `failure`.
    public var failedInstances: Int?
    /// Stored rows left out at start-up because they do not decode, in every table (absent
    /// when none); each was logged with its table, key and what to do.
    public var rowsLeftOut: Int?
    public init(
        daemon: String, protocol: Int, clock: ClockInfo, kinds: Int, instances: Int, timelines: Int,
        pendingReloads: Int, providersRunning: Int, nextWakeup: Date?, budgetEnabled: Bool,
        descriptorProblems: Int, stateDirectory: String
    ) {
        self.daemon = daemon
        self.protocol = `protocol`
        self.clock = clock
        self.kinds = kinds
        self.instances = instances
        self.timelines = timelines
        self.pendingReloads = pendingReloads
        self.providersRunning = providersRunning
        self.nextWakeup = nextWakeup
        self.budgetEnabled = budgetEnabled
        self.descriptorProblems = descriptorProblems
        self.stateDirectory = stateDirectory
    }
}

public struct WidgetKindInfo: Codable, Sendable {
    public var kind: String
    public var displayName: String
    public var description: String
    public var supportedFamilies: [WidgetFamily]
    public var provider: [String]?
    public var source: String
    public var instances: Int
    /// The configuration schema, for a host's configuration UI.
    public var intent: IntentSchema?
    /// Who may push, reload and donate for the kind (`{"user", "uid"}` or `{"group", "gid"}`).
    public var owner: KindOwner?
    /// Why the kind cannot be used now (its provider's program is missing or cannot be run);
    /// absent when it can.
    public var problem: String?
    /// The configuration sheet's colours (CSS), when the descriptor names them.
    public var accentColor: String?
    public var backgroundColor: String?
    /// How hosts render the kind's entries (an HTML template's path, bar text templates).
    public var templates: DisplayTemplates?
    /// The intent types its entries may attach as actions; absent when none.
    public var actions: [IntentSchema]?
    public init(descriptor: WidgetDescriptor, instances: Int) {
        actions = descriptor.actions.isEmpty ? nil : descriptor.actions
        accentColor = descriptor.accentColor
        backgroundColor = descriptor.backgroundColor
        templates = descriptor.templates
        intent = descriptor.intent
        problem = descriptor.problem
        owner = descriptor.owner
        kind = descriptor.kind
        displayName = descriptor.displayName
        description = descriptor.description
        supportedFamilies = descriptor.supportedFamilies
        provider = descriptor.provider?.exec
        source = descriptor.source
        self.instances = instances
    }
}

public struct WidgetsResult: Codable, Sendable {
    public var widgets: [WidgetKindInfo]
    /// Descriptor files that were skipped, with why.
    public var problems: [DescriptorProblem]
    /// The widgets directories read, in order (a kind declared twice keeps the first).
    public var directories: [String]?
    /// Whether the directories are watched, so a change is picked up without being asked.
    public var watched: Bool?
    public init(widgets: [WidgetKindInfo], problems: [DescriptorProblem], directories: [String]? = nil, watched: Bool? = nil) {
        self.widgets = widgets
        self.problems = problems
        self.directories = directories
        self.watched = watched
    }
}

public struct AddParams: Codable, Sendable {
    public var kind: String
    public var family: String
    public var configuration: [String: JSONValue]?
    /// Also place the new instance at the end of this stack.
    public var stack: String?
    public init(kind: String, family: String, configuration: [String: JSONValue]? = nil, stack: String? = nil) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.stack = stack
    }
}

public struct AddResult: Codable, Sendable {
    public var id: InstanceID
    public init(id: InstanceID) { self.id = id }
}

public struct InstanceParams: Codable, Sendable, Equatable {
    public var id: InstanceID
    public init(id: InstanceID) { self.id = id }
}

public struct RemoveResult: Codable, Sendable {
    public var removed: InstanceID
    public init(removed: InstanceID) { self.removed = removed }
}

public struct ConfigureParams: Codable, Sendable {
    public var id: InstanceID
    /// Values to set; merged into the current configuration unless `replace` is true.
    public var configuration: [String: JSONValue]
    public var replace: Bool?
    public init(id: InstanceID, configuration: [String: JSONValue], replace: Bool? = nil) {
        self.id = id
        self.configuration = configuration
        self.replace = replace
    }
}

/// WidgetKit's `WidgetInfo`, plus what the daemon knows about the instance now.
public struct InstanceInfo: Codable, Sendable {
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: [String: JSONValue]
    public var currentEntry: TimelineEntry?
    public var hasTimeline: Bool
    public var nextReload: Date?
    /// A host shows it now (its last `visible` report, or the top of a stack just shown).
    public var visible: Bool?
    /// When a host last showed it.
    public var lastVisible: Date?
    /// An action was performed and the reload after it has not ended: the entry is out of date.
    public var invalidated: Bool?
    /// Why the instance is not loaded ("stored row does not decode: ..."); absent for every
    /// instance that is. Such an instance can only be removed.
    public var failure: String?
    public init(
        id: InstanceID, kind: String, family: WidgetFamily, configuration: [String: JSONValue],
        currentEntry: TimelineEntry?, hasTimeline: Bool, nextReload: Date?
    ) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.currentEntry = currentEntry
        self.hasTimeline = hasTimeline
        self.nextReload = nextReload
    }
}

public struct TimelineResult: Codable, Sendable {
    public var instance: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var entries: [TimelineEntry]
    public var policy: ReloadPolicy?
    public var currentIndex: Int?
    public var currentEntry: TimelineEntry?
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
        instance: InstanceID, kind: String, family: WidgetFamily, entries: [TimelineEntry], policy: ReloadPolicy?,
        currentIndex: Int?, currentEntry: TimelineEntry?, nextEntryChange: Date?, nextReload: ScheduledReload?,
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
    public var timeline: Timeline
    public init(id: InstanceID, timeline: Timeline) {
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
    /// `budget` when the budget moved `due` past `wanted`; nil otherwise.
    public var deferredBy: String?
    public var inFlight: Bool
    /// For a reload held while no host shows the instance (`reason` `hidden`): why it would
    /// run (`policy`, `requested`, `retry`) once a host shows it.
    public var heldReason: ReloadReason?
    public init(_ reload: ScheduledReload) {
        instance = reload.instance
        kind = reload.kind
        due = reload.due
        wanted = reload.wanted
        reason = reload.reason
        deferredBy = reload.heldReason != nil ? "hidden" : reload.deferredByBudget ? "budget" : nil
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
    /// The daily limit without the lowering for an instance no host has shown in 24 hours;
    /// present only when `limit` is lowered.
    public var fullLimit: Int?
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

public struct ClockAdvanceParams: Codable, Sendable {
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
}

public struct ClockSetParams: Codable, Sendable {
    public var date: Date
    public init(date: Date) { self.date = date }
}
