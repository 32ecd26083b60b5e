import Foundation

/// A piece of state a plan reads and changes.
public enum StateKey: Sendable, Hashable {
    case instance(InstanceID)
    case stack(String)
    /// The donation log as a whole.
    case donations
}

/// The keys of a plan: exclusive ones it changes (or reads to decide a change), shared ones it
/// only needs to stay as they are in kind (donations appended side by side never conflict;
/// a deletion of donations does).
public struct Keys: Sendable, Hashable {
    public var exclusive: Set<StateKey> = []
    public var shared: Set<StateKey> = []

    public init() {}

    public mutating func take(_ key: StateKey) {
        exclusive.insert(key)
        shared.remove(key)
    }

    public mutating func share(_ key: StateKey) {
        if !exclusive.contains(key) { shared.insert(key) }
    }

    public mutating func formUnion(_ other: Keys) {
        for key in other.exclusive { take(key) }
        for key in other.shared { share(key) }
    }
}

/// The plans in flight: stored or being stored, not yet applied. Each plan is worked out
/// against the state as stored, so a plan may start only when no plan in flight touches a
/// key it needs; it is tried again once they are applied. Plans with disjoint keys are
/// stored together (one transaction, one sync) and applied in the order they were made.
public struct ChangeLedger: Sendable {
    private var exclusive: [StateKey: Int] = [:]
    private var shared: [StateKey: Int] = [:]
    /// What plans in flight add, for the limits.
    public private(set) var reserved = LimitReservations()
    public private(set) var inFlight = 0

    public init() {}

    public var isIdle: Bool { inFlight == 0 }

    /// Whether a plan with `keys` must wait for one in flight.
    public func conflicts(_ keys: Keys) -> Bool {
        guard inFlight > 0 else { return false }
        for key in keys.exclusive where exclusive[key] != nil || shared[key] != nil { return true }
        for key in keys.shared where exclusive[key] != nil { return true }
        return false
    }

    public mutating func hold(_ plan: Plan) {
        inFlight += 1
        reserved = reserved + plan.reservation
        for key in plan.keys.exclusive { exclusive[key, default: 0] += 1 }
        for key in plan.keys.shared { shared[key, default: 0] += 1 }
    }

    public mutating func release(_ plan: Plan) {
        inFlight -= 1
        reserved = reserved - plan.reservation
        for key in plan.keys.exclusive { Self.drop(key, from: &exclusive) }
        for key in plan.keys.shared { Self.drop(key, from: &shared) }
    }

    private static func drop(_ key: StateKey, from counts: inout [StateKey: Int]) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }
}
