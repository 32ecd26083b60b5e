import Foundation

extension DaemonState {
    /// Places an instance whose configuration is already validated for its kind and family.
    /// Its first load is exempt from the budget and due at once. With `stack`, the instance
    /// and its place at the end of that stack are one change: a crash never leaves an
    /// instance that was asked for in a stack outside it.
    public mutating func planAdd(
        id: InstanceID, kind: String, family: WidgetFamily, configuration: [String: JSONValue], stack name: String?,
        at now: Date, reserved: LimitReservations
    ) throws(StateError) -> Plan {
        guard let descriptor = descriptors[kind] else { throw .unknownKind(kind) }
        if let problem = descriptor.problem { throw .unusableKind(kind, problem: problem) }
        guard descriptor.supports(family) else {
            throw .unsupportedFamily(family.rawValue, kind: kind, supported: descriptor.supportedFamilies)
        }
        try checkRoomForAdd(stack: name, reserved: reserved)
        try checkConfigurationSize(configuration)
        var stack: StackState?
        if let name {
            var state = try self.stack(name)
            state.instances.append(id)
            if state.top == nil { state.top = state.instances.first }
            stack = state
        }
        var record = InstanceRecord(
            instance: WidgetInstance(id: id, kind: kind, family: family, configuration: configuration, created: now))
        var plan = Plan()
        plan.store.append(.putInstance(record.instance))
        if descriptor.provider != nil {
            let request = StoredRequest(reason: .initial, wanted: now, sequence: nextRequestSequence())
            record.request = request
            plan.store.append(.putRequest(id, reason: .initial, wanted: now, sequence: request.sequence))
        }
        plan.keys.take(.instance(id))
        plan.reservation.instances = 1
        let added = record
        plan.effect { $0.addInstance(added) }
        plan.note(.info, "instance added", ["instance": id, "kind": kind, "family": family.rawValue])
        if let stack {
            plan.events.append(.stack(stack, date: now))
            evaluate(
                [stack.name], at: now, stacks: [stack.name: stack],
                inputs: [id: RankingInput(instance: id, history: RelevanceHistory(), matchedDonations: matches(for: added))],
                into: &plan)
        }
        return plan
    }

    /// Refuses one more instance beyond `max-instances`, or in a stack beyond `max-stack-size`
    /// (checked before the configuration is, and again when the change is planned).
    public func checkRoomForAdd(stack name: String?, reserved: LimitReservations) throws(StateError) {
        let limits = settings.limits
        guard instances.count + reserved.instances < limits.maxInstances else {
            throw .limitExceeded(limits.instancesExceeded())
        }
        if let name {
            guard try stack(name).instances.count + 1 <= limits.maxStackSize else {
                throw .limitExceeded(limits.stackSizeExceeded(name))
            }
        }
    }

    /// Removes an instance, and it from every stack that holds it, in one change.
    public func planRemove(_ id: InstanceID, at now: Date) throws(StateError) -> Plan {
        if instances[id] == nil, failedInstances[id] != nil { return planRemoveFailed(id) }
        _ = try record(id)
        var plan = Plan()
        plan.store.append(.deleteInstance(id))
        plan.keys.take(.instance(id))
        plan.effect { $0.removeInstance(id) }
        plan.note(.info, "instance removed", ["instance": id])
        var touched: [String: StackState] = [:]
        for name in stacks.containing(id) {
            guard let state = stacks[name] else { continue }
            let updated = Self.removing(id, from: state, at: now)
            touched[name] = updated
            plan.events.append(.stack(updated, date: now))
        }
        evaluate(touched.keys.sorted(), at: now, stacks: touched, into: &plan)
        return plan
    }

    /// Refuses a configuration over `max-configuration-bytes`: checked on what is given,
    /// before validation asks a provider for options, and again on what would be stored.
    public func checkConfigurationSize(_ configuration: [String: JSONValue]) throws(StateError) {
        do { try settings.limits.checkConfiguration(configuration) } catch { throw .limitExceeded(error) }
    }

    /// Removing an instance whose stored row does not decode deletes its rows (the delete
    /// cascades to them all); nothing else in memory refers to it.
    private func planRemoveFailed(_ id: InstanceID) -> Plan {
        var plan = Plan()
        plan.store.append(.deleteInstance(id))
        plan.keys.take(.instance(id))
        plan.effect { $0.failedInstances[id] = nil }
        plan.note(.info, "instance removed", ["instance": id, "failed": "stored row did not decode"])
        return plan
    }

    /// The configuration `configure` asks to validate: the given values merged into the
    /// current ones (or replacing them), without keys an older descriptor had.
    public func configurationToValidate(
        _ id: InstanceID, given: [String: JSONValue], replace: Bool
    ) throws(StateError) -> (record: InstanceRecord, merged: [String: JSONValue]) {
        let record = try record(id)
        var merged = replace ? [:] : record.instance.configuration
        if let schema = descriptors[record.kind]?.intent {
            // Keys an older descriptor had are not the user's to repeat.
            merged = merged.filter { schema.parameter($0.key) != nil }
        }
        merged.merge(given) { $1 }
        try checkConfigurationSize(merged)
        if descriptors[record.kind] == nil {
            // The kind is gone (descriptor removed): nothing to check against.
            merged = merged.filter { $0.value != .null }
        }
        return (record, merged)
    }

    /// Changes an instance's configuration (validated); the reload that follows is exempt from
    /// the budget. Donations match on the configuration, so its stacks are evaluated again.
    public mutating func planConfigure(
        _ id: InstanceID, configuration: [String: JSONValue], at now: Date
    ) throws(StateError) -> Plan {
        var record = try record(id)
        try checkConfigurationSize(configuration)
        record.instance.configuration = configuration
        var plan = Plan()
        plan.store.append(.putInstance(record.instance))
        let request = hasProvider(record.kind)
            ? StoredRequest(reason: .configuration, wanted: now, sequence: nextRequestSequence()) : nil
        if let request {
            plan.store.append(.putRequest(id, reason: .configuration, wanted: now, sequence: request.sequence))
        }
        plan.keys.take(.instance(id))
        let change = nextChange()
        let stacked = stacks.isStacked(id)
        let matched = stacked ? matches(for: record) : []
        plan.effect { state in
            state.instances.update(id) { record in
                record.instance.configuration = configuration
                record.replaced = change
                if let request { record.request = request }
                if stacked { record.matched = matched }
            }
            if request != nil { state.scheduler.request(id, reason: .configuration, at: now, in: &state.instances) }
        }
        plan.note(.info, "instance configured", ["instance": id, "configuration": JSONValue.object(configuration).compactText])
        evaluate(
            stacks.containing(id), at: now,
            inputs: [id: RankingInput(instance: id, history: record.relevance, matchedDonations: matched)], into: &plan)
        return plan
    }

    /// A stack without `id`. When it was the top, the next evaluation picks an eligible one.
    static func removing(_ id: InstanceID, from state: StackState, at now: Date) -> StackState {
        var state = state
        state.instances.removeAll { $0 == id }
        if state.userChoice == id { state.userChoice = nil }
        if state.top == id {
            state.top = nil
            state.topSince = now
        }
        return state
    }

    /// Brings every instance's configuration up to date with its descriptor (at start and
    /// when descriptors are read again): what providers receive always fits the schema they
    /// declare. Returns the instances to store again, with a note for each.
    mutating func normalizeConfigurations() -> (changes: [StoreChange], notes: [Note]) {
        var changed: [WidgetInstance] = []
        let schemas = intentSchemas
        // Only kinds with an intent have configurations to normalise: with none, a million
        // records are not walked.
        for index in schemas.isEmpty ? 0..<0 : instances.all.indices {
            guard let schema = schemas[instances.all[index].kind] else { continue }
            var instance = instances.all[index].instance
            let normalized = schema.normalized(instance.configuration, family: instance.family)
            guard normalized != instance.configuration else { continue }
            instance.configuration = normalized
            changed.append(instance)
        }
        // Only the changed ones are put in order (a restart may hold a million records).
        changed.sort { ($0.created, $0.id) < ($1.created, $1.id) }
        var notes: [Note] = []
        for instance in changed {
            instances.update(instance.id) { $0.instance.configuration = instance.configuration }
            notes.append(Note(
                level: .notice, message: "configuration updated to its descriptor",
                metadata: ["instance": instance.id, "kind": instance.kind]))
        }
        return (changed.map { .putInstance($0) }, notes)
    }
}
