import Foundation

/// Every Smart Stack, with when each must be evaluated again for reasons of time alone (a
/// relevance lapsing, an affinity slot, a dwell, hold or cap ending), and which stacks hold
/// each instance (an entry change re-evaluates those, and is frequent).
public struct StackBook: Sendable, Equatable {
    public private(set) var stacks: [String: StackState] = [:]
    public private(set) var recheck: [String: Date] = [:]
    private var membership: [InstanceID: [String]] = [:]
    /// The earliest recheck, kept so the timer need not scan every stack.
    public private(set) var nextRecheck: Date?

    public init() {}

    public var count: Int { stacks.count }

    public subscript(name: String) -> StackState? { stacks[name] }

    /// Whether a stack is called `name`, without copying it out.
    public func contains(_ name: String) -> Bool { stacks.index(forKey: name) != nil }

    /// Stack names in order.
    public var names: [String] { stacks.keys.sorted() }

    /// The stacks that hold `id`, in name order.
    public func containing(_ id: InstanceID) -> [String] {
        membership[id] ?? []
    }

    /// Whether `id` is in any stack (its matched donations are kept only then).
    public func isStacked(_ id: InstanceID) -> Bool {
        membership[id] != nil
    }

    /// Stacks whose rechecks are due at `now`, in name order.
    public func due(at now: Date) -> [String] {
        guard let next = nextRecheck, next <= now else { return [] }
        return recheck.filter { $0.value <= now }.keys.sorted()
    }

    /// Takes the rechecks due at `now` off the book and answers their stacks, in name order.
    /// The earliest left is found once: an affinity slot makes most stacks due together, and
    /// clearing them one by one would look for it again after each.
    public mutating func takeDue(at now: Date) -> [String] {
        guard let next = nextRecheck, next <= now else { return [] }
        let due = recheck.filter { $0.value <= now }.keys.sorted()
        for name in due { recheck[name] = nil }
        nextRecheck = recheck.values.min()
        return due
    }

    public mutating func put(_ state: StackState) {
        let old = stacks.updateValue(state, forKey: state.name)
        guard old?.instances != state.instances else { return }
        for id in old?.instances ?? [] where !state.instances.contains(id) { leave(id, state.name) }
        for id in state.instances where !(old?.instances.contains(id) ?? false) { join(id, state.name) }
    }

    public mutating func remove(_ name: String) {
        guard let old = stacks.removeValue(forKey: name) else { return }
        for id in old.instances { leave(id, name) }
        setRecheck(name, nil)
    }

    public mutating func setRecheck(_ name: String, _ date: Date?) {
        let old = recheck[name]
        guard old != date else { return }
        recheck[name] = date
        if let date, nextRecheck.map({ date < $0 }) ?? true {
            nextRecheck = date
        } else if old == nextRecheck {
            nextRecheck = recheck.values.min()
        }
    }

    /// Forgets every recheck (after the wall clock went back they were computed from dates
    /// after now; every stack is evaluated again).
    public mutating func clearRechecks() {
        recheck.removeAll()
        nextRecheck = nil
    }

    private mutating func join(_ id: InstanceID, _ name: String) {
        var names = membership[id] ?? []
        let index = names.firstIndex { $0 > name } ?? names.endIndex
        names.insert(name, at: index)
        membership[id] = names
    }

    private mutating func leave(_ id: InstanceID, _ name: String) {
        guard var names = membership[id] else { return }
        names.removeAll { $0 == name }
        membership[id] = names.isEmpty ? nil : names
    }
}
