import Foundation

/// One provider launch the schedule asks for: the instances it serves, and what the answer
/// must be checked against when it comes back.
public struct Launch: Sendable, Hashable {
    /// Launches are numbered in the order they start.
    public var token: UInt64
    /// When the launch happens (the virtual `now` on the virtual clock).
    public var date: Date
    public var provider: ProviderSpec
    /// Earliest wanted first.
    public var members: [WidgetInstance]
    /// Per member, in order: why it reloads.
    public var reasons: [ReloadReason]
    /// Per member: the stored request this launch carries out (a newer one made meanwhile stays).
    public var consumed: [Int64?]
    /// Per member: its record's `replaced` when the launch began. A push or configure since
    /// makes the answer stale.
    public var seen: [UInt64]
    /// Per member: when its reload was wanted; a launch later than that was held back by the budget.
    public var wanted: [Date] = []

    public var kind: String { members[0].kind }
}

/// What one launch produced for one member.
public enum MemberOutcome: Sendable, Hashable {
    case timeline(WidgetTimeline)
    /// The message shown as `lastError`, and its class (see `FailureStreak`).
    case failed(String, cause: String)
}

/// What the schedule hands over at a wake-up: entry changes to tell now, launches to start.
public struct DueWork: Sendable {
    public var events: [StateEvent] = []
    public var launches: [Launch] = []
    /// What the schedule gave: entry changes and reload batches (a batch may need several
    /// launches, one per configuration).
    public var popped = 0

    public var isEmpty: Bool { events.isEmpty && launches.isEmpty }
}
