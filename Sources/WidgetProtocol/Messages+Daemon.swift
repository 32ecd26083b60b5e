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
