import Foundation

/// A change worked out against the state as stored: what to store, then what to do to memory
/// once it is stored, what to tell subscribers and what to log. The state is never changed
/// before the store has the change, so a refused write leaves nothing half-applied; and the
/// consequences (stack evaluations, rotation decisions) are part of the same plan, so they
/// are stored, applied and told in the same step as their cause.
public struct Plan: Sendable {
    /// Written in one transaction.
    public var store: [StoreChange] = []
    /// Applied in order by `DaemonState.apply` once the store has committed.
    var effects: [@Sendable (inout DaemonState) -> Void] = []
    /// For subscribers, in order, once applied.
    public var events: [StateEvent] = []
    /// For the journal, in order, once applied.
    public var notes: [Note] = []
    /// What the plan read and writes: no other plan touching them may be in flight.
    public var keys = Keys()
    /// Instances, stacks and donations it adds, counted against `[limits]` while in flight.
    public var reservation = LimitReservations()

    public init() {}

    /// Whether applying it changes anything at all.
    public var isEmpty: Bool { store.isEmpty && effects.isEmpty && events.isEmpty && notes.isEmpty }

    mutating func effect(_ change: @escaping @Sendable (inout DaemonState) -> Void) {
        effects.append(change)
    }

    mutating func note(_ level: Note.Level, _ message: String, _ metadata: @autoclosure @escaping @Sendable () -> [String: String] = [:]) {
        notes.append(Note(level: level, message: message, metadata: metadata()))
    }
}

/// One line for the journal: its level, message and structured fields. The fields are
/// worked out only if the line is logged: a debug line on every request must cost nothing
/// when debug is off.
public struct Note: Sendable {
    public enum Level: Int, Sendable, Hashable, Comparable {
        case debug, info, notice, warning, error

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var level: Level
    public var message: String
    private let fields: @Sendable () -> [String: String]

    public init(level: Level, message: String, metadata: @autoclosure @escaping @Sendable () -> [String: String] = [:]) {
        self.level = level
        self.message = message
        fields = metadata
    }

    public var metadata: [String: String] { fields() }
}

/// What happened, for subscribers.
public enum StateEvent: Sendable, Hashable {
    /// The shown entry of an instance changed: at its entry date, or a timeline was pushed.
    case entryChange(InstanceID, date: Date, entry: WidgetEntry?)
    /// A host performed one of the instance's actions: what it shows is out of date until the
    /// reload that follows ends.
    case invalidated(InstanceID, action: String, date: Date)
    /// Timelines were reloaded by one provider launch.
    case reload(kind: String, instances: [InstanceID], date: Date)
    /// A launch failed for these instances; their previous timelines stay.
    case reloadFailed(kind: String, instances: [InstanceID], error: String, date: Date)
    /// A stack's top changed, or a better candidate was held back.
    case rotation(RotationDecision, StackState)
    /// A stack was created or changed.
    case stack(StackState, date: Date)
    case stackRemoved(String, date: Date)
}

/// Instances, stacks and donations being stored and not yet applied. A request checks the
/// count in memory plus these, so two requests in flight together cannot both take the last
/// place.
public struct LimitReservations: Sendable, Hashable {
    public var instances = 0
    public var stacks = 0
    public var donations = 0

    public init(instances: Int = 0, stacks: Int = 0, donations: Int = 0) {
        self.instances = instances
        self.stacks = stacks
        self.donations = donations
    }

    static func + (lhs: Self, rhs: Self) -> Self {
        Self(instances: lhs.instances + rhs.instances, stacks: lhs.stacks + rhs.stacks, donations: lhs.donations + rhs.donations)
    }

    static func - (lhs: Self, rhs: Self) -> Self {
        Self(instances: lhs.instances - rhs.instances, stacks: lhs.stacks - rhs.stacks, donations: lhs.donations - rhs.donations)
    }
}
