import Foundation

/// What a dry run of the coming hours found (`widgetctl simulate`, method `simulate`): the
/// stacks as they stand at the start, then everything the daemon would do on its own until
/// the end, in date order. The same value goes over the socket (the protocol's
/// `SimulateResult`) and into the picture (`WidgetPictures`).
public struct SimulationReport: Sendable, Hashable, Codable {
    public var start: Date
    public var end: Date
    /// Each stack at the start, by name.
    public var stacks: [SimulatedStack] = []
    /// Every rotation decision, as the decision log would hold it (`to` null when held back).
    public var rotations: [SimulatedRotation] = []
    public var entryChanges: [SimulatedEntryChange] = []
    public var reloads: [SimulatedReload] = []
    /// When each stacked instance's matched donations were made, as times of day in the
    /// period: affinity peaks around them.
    public var donations: [SimulatedDonation] = []
    /// Each stacked instance's relative relevance across the period, a step curve.
    public var relevance: [RelevanceCurve] = []
    /// Totals, counted in full even where a list was cut at the limit.
    public var counts = Counts()
    /// A list was cut at the limit, or the run stopped at its step limit before the end.
    public var truncated = false

    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    public struct Counts: Sendable, Hashable, Codable {
        public var rotations = 0
        public var heldBack = 0
        public var entryChanges = 0
        public var budgeted = 0
        public var exempt = 0
        public var deferred = 0
        /// Reloads whose provider failed (only when providers are run): the previous timeline stays.
        public var failed = 0
        /// Launches answered by their provider rather than by the timeline held now.
        public var providerLaunches = 0

        public init() {}

        /// A count the answer leaves out is 0, so a client reads the answer of a daemon from
        /// before that count was added.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
            rotations = try count(.rotations)
            heldBack = try count(.heldBack)
            entryChanges = try count(.entryChanges)
            budgeted = try count(.budgeted)
            exempt = try count(.exempt)
            deferred = try count(.deferred)
            failed = try count(.failed)
            providerLaunches = try count(.providerLaunches)
        }
    }
}

public struct SimulatedStack: Sendable, Hashable, Codable {
    public var name: String
    public var smartRotate: Bool
    /// On top at the start.
    public var top: InstanceID?
    public var instances: [SimulatedInstance]

    public init(name: String, smartRotate: Bool, top: InstanceID?, instances: [SimulatedInstance]) {
        self.name = name
        self.smartRotate = smartRotate
        self.top = top
        self.instances = instances
    }
}

public struct SimulatedInstance: Sendable, Hashable, Codable {
    public var id: InstanceID
    public var kind: String

    public init(id: InstanceID, kind: String) {
        self.id = id
        self.kind = kind
    }
}

/// A rotation decision without its candidates (their relevance is in the curves).
public struct SimulatedRotation: Sendable, Hashable, Codable {
    public var date: Date
    public var stack: String
    public var from: InstanceID?
    /// nil when the candidate was held back.
    public var to: InstanceID?
    public var candidate: InstanceID
    public var reason: RotationReason

    public init(_ decision: RotationDecision) {
        date = decision.date
        stack = decision.stack
        from = decision.from
        to = decision.to
        candidate = decision.candidate
        reason = decision.reason
    }

    private enum CodingKeys: String, CodingKey {
        case date, stack, from, to, candidate, reason
    }

    /// `from` and `to` are written as null when absent: every rotation carries the keys a
    /// script looks for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(stack, forKey: .stack)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(candidate, forKey: .candidate)
        try container.encode(reason, forKey: .reason)
    }
}

public struct SimulatedEntryChange: Sendable, Hashable, Codable {
    public var date: Date
    public var instance: InstanceID

    public init(date: Date, instance: InstanceID) {
        self.date = date
        self.instance = instance
    }
}

/// How a reload stands with the budget.
public enum BudgetClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// Counted against the budget, run when wanted.
    case budgeted
    /// Not counted (initial, configuration, user-initiated, or the budget is off).
    case exempt
    /// Counted, and held back by the budget past the date it was wanted.
    case deferred
}

public struct SimulatedReload: Sendable, Hashable, Codable {
    /// When it runs.
    public var date: Date
    public var instance: InstanceID
    public var kind: String
    public var reason: ReloadReason
    public var wanted: Date
    public var budget: BudgetClass
    /// Why the provider failed, when it was run and failed: the instance keeps its timeline.
    public var error: String?

    public init(
        date: Date, instance: InstanceID, kind: String, reason: ReloadReason, wanted: Date, budget: BudgetClass, error: String? = nil
    ) {
        self.date = date
        self.instance = instance
        self.kind = kind
        self.reason = reason
        self.wanted = wanted
        self.budget = budget
        self.error = error
    }
}

public struct SimulatedDonation: Sendable, Hashable, Codable {
    /// The donation's local time of day, on a day in the period.
    public var date: Date
    public var stack: String
    public var instance: InstanceID
    /// When it was donated.
    public var donated: Date
    public var id: String?

    public init(date: Date, stack: String, instance: InstanceID, donated: Date, id: String?) {
        self.date = date
        self.stack = stack
        self.instance = instance
        self.donated = donated
        self.id = id
    }
}

/// An instance's relative relevance (0...1) from each `at` (seconds after the start) until
/// the next.
public struct RelevanceCurve: Sendable, Hashable, Codable {
    public var instance: InstanceID
    public var at: [Double]
    public var value: [Double]

    public init(instance: InstanceID, at: [Double] = [], value: [Double] = []) {
        self.instance = instance
        self.at = at
        self.value = value
    }
}
