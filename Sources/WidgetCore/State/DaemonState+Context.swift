import Foundation

/// The session's context as the pure state takes it in (docs/clues.md): readings from the
/// watchers, host values from `context.set`. A change is one step: the context is taken in,
/// the stacks holding an instance that uses a changed clue are marked for evaluation, and the
/// budget's conditions follow (held reloads are released at once). The caller then settles,
/// which evaluates the marked stacks in one plan and carries out what became due.
extension DaemonState {
    /// Whether some instance's current timeline uses a location clue: the location source
    /// runs only then.
    public var usesLocationClue: Bool {
        settings.context.location && clueUsers.inUse(.location)
    }

    /// Takes the sources' readings at `now`, at once (the context is not stored). The plan
    /// answered only tells the journal what changed; the stacks to evaluate are marked.
    public mutating func observe(_ readings: [ContextReading], now: Date) -> Plan {
        take(context.observe(readings, at: now), at: now)
    }

    /// Takes a host's values at `now` (`context.set`): a value sets its key, nil removes it.
    /// Refused as a whole, changing nothing, when a key is empty, or the values would pass
    /// `[limits]` `max-context-values` or `max-context-value-bytes`.
    public mutating func observe(hostValues values: [String: String?], now: Date) throws(StateError) -> Plan {
        try checkHostValues(values)
        return take(context.setHostValues(values, at: now), at: now)
    }

    /// Whether `values` may be taken, without taking them.
    public func checkHostValues(_ values: [String: String?]) throws(StateError) {
        let limits = settings.limits
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty else { throw .invalidParams("params.values: a key must not be empty") }
            let bytes = key.utf8.count + (value?.utf8.count ?? 0)
            guard bytes <= limits.maxContextValueBytes else {
                throw .limitExceeded(LimitExceeded(
                    setting: "max-context-value-bytes", max: limits.maxContextValueBytes,
                    what: "the context value '\(key)' of \(bytes) bytes, over \(limits.maxContextValueBytes)", actual: bytes))
            }
        }
        var keys = Set(context.hostValues.keys)
        for (key, value) in values {
            if value == nil { keys.remove(key) } else { keys.insert(key) }
        }
        guard keys.count <= limits.maxContextValues else {
            throw .limitExceeded(LimitExceeded(
                setting: "max-context-values", max: limits.maxContextValues,
                what: "\(keys.count) context values, over \(limits.maxContextValues)", actual: keys.count))
        }
    }

    /// Marks the stacks the change can reorder; answers a plan with the journal's line.
    private mutating func take(_ change: ContextChange, at now: Date) -> Plan {
        var plan = Plan()
        guard !change.isEmpty else { return plan }
        var marked = Set<String>()
        for kind in change.clues {
            for id in clueUsers.instances(using: kind) { marked.formUnion(stacks.containing(id)) }
        }
        dirtyStacks.formUnion(marked)
        // Names only: a host's values and the location's coordinates stay out of the journal.
        let clues = change.clues.sorted().map(\.rawValue).joined(separator: ",")
        let keys = change.hostKeys.sorted().joined(separator: ",")
        let sources = change.sources.map(\.rawValue).sorted().joined(separator: ",")
        let stacks = marked.sorted().joined(separator: ",")
        plan.note(.debug, "context changed", ["clues": clues, "keys": keys, "sources": sources, "stacks": stacks])
        return plan
    }
}
