import Foundation

extension DaemonState {
    public func planCreateStack(
        _ name: String, smartRotate: Bool, at now: Date, reserved: LimitReservations
    ) throws(StateError) -> Plan {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100, !name.contains("\u{0}") else {
            throw .invalidParams("params.name: a stack name is 1-100 characters")
        }
        guard stacks[name] == nil else { throw .stackExists(name) }
        let limits = settings.limits
        guard stacks.count + reserved.stacks < limits.maxStacks else { throw .limitExceeded(limits.stacksExceeded()) }
        let state = StackState(name: name, smartRotate: smartRotate)
        var plan = Plan()
        plan.store.append(.putStack(state))
        plan.keys.take(.stack(name))
        plan.reservation.stacks = 1
        plan.effect { $0.putStack(state) }
        plan.events.append(.stack(state, date: now))
        plan.note(.info, "stack created", ["stack": name])
        return plan
    }

    public func planStackAdd(_ name: String, instances ids: [InstanceID], at now: Date) throws(StateError) -> Plan {
        var state = try stack(name)
        var inputs: [InstanceID: RankingInput] = [:]
        var plan = Plan()
        for id in ids {
            let record = try record(id)
            guard !state.instances.contains(id) else {
                throw .invalidParams("params.instances: '\(id)' is already in stack '\(name)'")
            }
            state.instances.append(id)
            plan.keys.take(.instance(id))
            inputs[id] = rankingInput(record)
        }
        let limits = settings.limits
        guard state.instances.count <= limits.maxStackSize else { throw .limitExceeded(limits.stackSizeExceeded(name)) }
        if state.top == nil { state.top = state.instances.first }
        plan.events.append(.stack(state, date: now))
        evaluate([name], at: now, stacks: [name: state], inputs: inputs, into: &plan)
        return plan
    }

    /// The user picks the top: at once, and Smart Rotate holds off for the user hold.
    public func planSwipe(_ name: String, to id: InstanceID, at now: Date) throws(StateError) -> Plan {
        var state = try stack(name)
        guard state.instances.contains(id) else {
            throw .invalidParams("params.instance: '\(id)' is not in stack '\(name)'")
        }
        state.swipe(to: id, at: now, hold: settings.rotation.userHold)
        return planStackChange(state, at: now)
    }

    public func planSmartRotate(_ name: String, on: Bool, at now: Date) throws(StateError) -> Plan {
        var state = try stack(name)
        state.smartRotate = on
        return planStackChange(state, at: now)
    }

    public func planRemoveStack(_ name: String, at now: Date) throws(StateError) -> Plan {
        _ = try stack(name)
        var plan = Plan()
        plan.store.append(.deleteStack(name))
        plan.keys.take(.stack(name))
        plan.effect { $0.removeStack(name) }
        plan.events.append(.stackRemoved(name, date: now))
        plan.note(.info, "stack removed", ["stack": name])
        return plan
    }

    /// Stacks evaluated again at `now` (a recheck came, or something they rank on changed),
    /// in the order given, as one change.
    public func planEvaluation(_ names: [String], at now: Date) -> Plan {
        var plan = Plan()
        evaluate(names, at: now, into: &plan)
        return plan
    }

    /// Stacks marked for evaluation, in name order; unmarked.
    public mutating func takeDirtyStacks() -> [String] {
        defer { dirtyStacks.removeAll() }
        return dirtyStacks.filter { stacks.contains($0) }.sorted()
    }

    private func planStackChange(_ state: StackState, at now: Date) -> Plan {
        var plan = Plan()
        plan.events.append(.stack(state, date: now))
        evaluate([state.name], at: now, stacks: [state.name: state], into: &plan)
        return plan
    }

    // MARK: Applying

    /// Stores a stack in the book; instances that join their first stack get their matched
    /// donations, those that leave their last forget them.
    mutating func putStack(_ state: StackState) {
        let before = stacks[state.name]?.instances ?? []
        stacks.put(state)
        // Most puts are a new top or rotation log, with the same members.
        guard before != state.instances else { return }
        refreshMatches(joining: state.instances.filter { !before.contains($0) }, leaving: before.filter { !state.instances.contains($0) })
    }

    mutating func removeStack(_ name: String) {
        let before = stacks[name]?.instances ?? []
        stacks.remove(name)
        rankingMemos[name] = nil
        refreshMatches(joining: [], leaving: before)
    }

    private mutating func refreshMatches(joining: [InstanceID], leaving: [InstanceID]) {
        for id in joining {
            guard let record = instances[id], record.matched.isEmpty else { continue }
            let matched = matches(for: record)
            if !matched.isEmpty { instances.update(id) { $0.matched = matched } }
        }
        for id in leaving where !stacks.isStacked(id) && !(instances[id]?.matched.isEmpty ?? true) {
            instances.update(id) { $0.matched = [] }
        }
    }
}
