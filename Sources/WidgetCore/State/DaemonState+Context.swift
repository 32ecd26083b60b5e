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
        // With the location source switched off no location is taken, whoever reports one.
        let taken = settings.context.location ? readings : readings.filter {
            if case .location = $0 { return false }
            return true
        }
        return take(context.observe(taken, at: now), at: now)
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

    /// Why `timeline` may not be taken for an instance of `kind`: an entry names a clue the
    /// kind's descriptor does not declare. Nil when it may.
    func clueProblem(_ timeline: WidgetTimeline, kind: String) -> String? {
        let entries = timeline.entries
        guard entries.haveClues else { return nil }
        for index in entries.indices {
            guard let when = entries.relevance(at: index)?.when else { continue }
            if let problem = clueProblem(when, kind: kind) { return "entries[\(index)].relevance.\(problem)" }
        }
        return nil
    }

    /// The same for one list of alternatives (`when[N].CLUE: ...`).
    func clueProblem(_ when: [ClueAlternative], kind: String) -> String? {
        let declared = descriptors[kind]?.clues ?? []
        for (index, alternative) in when.enumerated() {
            if let clue = alternative.kinds.subtracting(declared).sorted().first {
                return "when[\(index)].\(clue.rawValue): kind \(kind) does not declare the clue '\(clue.rawValue)' (add it to the descriptor's \"clues\")"
            }
        }
        return nil
    }

    /// Gives the scheduler the budget the context makes (docs/clues.md, "Budgets that follow
    /// the session"): a hold that ends makes the reloads it held due at once, to run in the
    /// same step.
    mutating func followSession() {
        let budget = settings.reloadBudget(in: context, visible: instances.visible)
        guard budget != scheduler.budget else { return }
        scheduler.updateBudget(budget, in: instances)
    }

    /// Which instances' timelines use which clues (kept by the book as records change).
    public var clueUsers: ClueUsers { instances.clueUsers }

    /// Marks the stacks the change can reorder; answers a plan with the journal's line.
    private mutating func take(_ change: ContextChange, at now: Date) -> Plan {
        var plan = Plan()
        guard !change.isEmpty else { return plan }
        var marked = Set<String>()
        for kind in change.clues {
            for id in clueUsers.instances(using: kind) { marked.formUnion(stacks.containing(id)) }
        }
        dirtyStacks.formUnion(marked)
        if change.budget { followSession() }
        // Names only: a host's values and the location's coordinates stay out of the journal.
        let clues = change.clues.sorted().map(\.rawValue).joined(separator: ",")
        let keys = change.hostKeys.sorted().joined(separator: ",")
        let sources = change.sources.map(\.rawValue).sorted().joined(separator: ",")
        let stacks = marked.sorted().joined(separator: ",")
        plan.note(.debug, "context changed", ["clues": clues, "keys": keys, "sources": sources, "stacks": stacks])
        if change.budget {
            let (session, limit) = (scheduler.budget.session, scheduler.budget.limit)
            plan.note(.info, "reload budget follows the session", [
                "locked": "\(session.locked)", "power_saver": "\(session.powerSaver)", "on_battery": "\(session.onBattery)",
                "limit": "\(limit)",
            ])
        }
        return plan
    }
}
