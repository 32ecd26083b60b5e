import Foundation
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// Places an instance. Its first load is exempt from the budget and due at once.
    public func add(_ params: AddParams) async throws(RPCError) -> AddResult {
        guard let name = params.stack else { return try await addLocked(params) }
        // The instance and its place in the stack are one change: a crash never leaves an
        // instance that was asked for in a stack outside it.
        let result = try await withInstanceLock(Self.stackLockKey(name)) { () async throws(RPCError) -> AddResult in
            try await addLocked(params)
        }
        await evaluateStack(name)
        return result
    }

    /// With `params.stack`, the caller holds that stack's lock.
    private func addLocked(_ params: AddParams) async throws(RPCError) -> AddResult {
        let (descriptor, family) = try kindAndFamily(params.kind, params.family)
        try checkRoomForInstance()
        if let stack = params.stack { try checkStackSize(stack, holding: try self.stack(stack).instances.count + 1) }
        let configuration = try await validated(params.configuration ?? [:], for: descriptor, family: family)
        let now = self.now
        let instance = WidgetInstance(
            id: makeInstanceID(), kind: params.kind, family: family, configuration: configuration, created: now)
        var changes: [StoreChange] = [.putInstance(instance)]
        let sequence = nextRequestSequence()
        if descriptor.provider != nil {
            changes.append(.putRequest(instance.id, reason: .initial, wanted: now, sequence: sequence))
        }
        var stack: StackState?
        if let name = params.stack {
            // Read again: validation may have waited on a provider.
            var state = try self.stack(name)
            state.instances.append(instance.id)
            try checkStackSize(name, holding: state.instances.count)
            if state.top == nil { state.top = state.instances.first }
            changes.append(.putStack(state))
            stack = state
        }
        // Again: validation may have waited, and other adds with it.
        try checkRoomForInstance()
        try await commit(changes, holding: \.instances)
        instances[instance.id] = instance
        if descriptor.provider != nil { storedRequests[instance.id] = StoredRequest(reason: .initial, wanted: now, sequence: sequence) }
        scheduler.add(instance.id, kind: instance.kind, providerKey: providerKey(for: instance.kind))
        if descriptor.provider != nil {
            scheduler.request(instance.id, reason: .initial, at: now)
        }
        logger.info("instance added", metadata: ["instance": "\(instance.id)", "kind": "\(instance.kind)", "family": "\(family.rawValue)"])
        scheduleChanged()
        if let stack {
            stacks[stack.name] = stack
            events.publish(WidgetEvent(type: .stack, date: now, stack: StackInfo(stack)))
        }
        return AddResult(id: instance.id)
    }

    public func remove(_ params: InstanceParams) async throws(RPCError) -> RemoveResult {
        try await withInstanceLock(params.id) { () async throws(RPCError) -> RemoveResult in try await removeLocked(params) }
    }

    private func removeLocked(_ params: InstanceParams) async throws(RPCError) -> RemoveResult {
        _ = try instance(params.id)  // an unknown id is an error
        // The stacks that held it change in the same transaction, under their locks: a stack
        // change stored meanwhile (a swipe, an add) would otherwise be overwritten on disk by
        // this older copy, and lost at the next restart.
        let names = stacks(containing: params.id).sorted()
        try await withStackLocks(names[...]) { () async throws(RPCError) -> Void in
            let touched = names.compactMap { stacks[$0] }.filter { $0.instances.contains(params.id) }
                .map { Self.removing(params.id, from: $0, at: now) }
            try await commit([.deleteInstance(params.id)] + touched.map { .putStack($0) })
        }
        instances[params.id] = nil
        storedRequests[params.id] = nil
        relevance[params.id] = nil
        matchedDonationCache[params.id] = nil
        visibleNow.remove(params.id)
        lastVisible[params.id] = nil
        timelines[params.id] = nil
        lastErrors[params.id] = nil
        failureStreaks.forget(params.id)
        scheduler.remove(params.id)
        logger.info("instance removed", metadata: ["instance": "\(params.id)"])
        // Applied to the stacks as they are now (an evaluation may have run meanwhile).
        for name in stacks(containing: params.id) {
            guard let state = stacks[name] else { continue }
            let updated = Self.removing(params.id, from: state, at: now)
            stacks[name] = updated
            dirtyStacks.insert(name)
            events.publish(WidgetEvent(type: .stack, date: now, stack: StackInfo(updated)))
        }
        await evaluateDirtyStacks()
        scheduleChanged()
        return RemoveResult(removed: params.id)
    }

    /// Changes an instance's configuration; the reload that follows is exempt from the budget.
    public func configure(_ params: ConfigureParams) async throws(RPCError) -> InstanceInfo {
        try await withInstanceLock(params.id) { () async throws(RPCError) -> InstanceInfo in try await configureLocked(params) }
    }

    private func configureLocked(_ params: ConfigureParams) async throws(RPCError) -> InstanceInfo {
        var instance = try instance(params.id)
        var given = params.replace == true ? [:] : instance.configuration
        if let schema = catalog[instance.kind]?.intent {
            // Keys an older descriptor had are not the user's to repeat.
            given = given.filter { schema.parameter($0.key) != nil }
        }
        given.merge(params.configuration) { $1 }
        if let descriptor = catalog[instance.kind] {
            instance.configuration = try await validated(given, for: descriptor, family: instance.family)
        } else {
            // The kind is gone (descriptor removed): nothing to check against.
            instance.configuration = given.filter { $0.value != .null }
        }
        guard instances[instance.id] != nil else { throw .unknownInstance(instance.id) }
        let now = self.now
        let reload = hasProvider(instance.kind)
        var changes: [StoreChange] = [.putInstance(instance)]
        let sequence = nextRequestSequence()
        if reload { changes.append(.putRequest(instance.id, reason: .configuration, wanted: now, sequence: sequence)) }
        try await commit(changes)
        instances[instance.id] = instance
        if reload { storedRequests[instance.id] = StoredRequest(reason: .configuration, wanted: now, sequence: sequence) }
        // Donations match on the configuration: the ranking may change.
        dirtyStacks.formUnion(stacks(containing: instance.id))
        if reload { scheduler.request(instance.id, reason: .configuration, at: now) }
        logger.info("instance configured", metadata: ["instance": "\(instance.id)", "configuration": "\(JSONValue.object(instance.configuration).compactText)"])
        scheduleChanged()
        return info(instance)
    }

    /// Installs a timeline for an instance from outside (`widgetctl push`, an app).
    public func push(_ params: PushParams) async throws(RPCError) -> PushResult {
        try await withInstanceLock(params.id) { () async throws(RPCError) -> PushResult in try await pushLocked(params) }
    }

    private func pushLocked(_ params: PushParams) async throws(RPCError) -> PushResult {
        let instance = try instance(params.id)
        try checkTimeline(params.timeline)
        let now = self.now
        let (history, rows) = relevanceAfter(params.timeline, for: instance.id, at: now)
        try await commit([.putTimeline(instance.id, params.timeline, receivedAt: now), .updateRelevance(instance.id, rows)])
        guard instances[instance.id] != nil else { throw .unknownInstance(instance.id) }
        install(params.timeline, for: instance, receivedAt: now, fromProvider: false, history: history)
        logger.info("timeline pushed", metadata: ["instance": "\(instance.id)", "entries": "\(params.timeline.entries.count)"])
        await evaluateDirtyStacks()
        scheduleChanged()
        return PushResult(
            instance: instance.id, entries: params.timeline.entries.count,
            nextReload: scheduler.pendingReload(for: instance.id)?.due)
    }

    /// `reloadTimelines(ofKind:)` for each kind; an unknown kind rejects the whole request.
    public func reloadTimelines(_ params: ReloadTimelinesParams) async throws(RPCError) -> ReloadResult {
        guard !params.kinds.isEmpty else { throw .invalidParams("params.kinds: name at least one kind") }
        for kind in params.kinds where catalog[kind] == nil {
            throw .unknownKind(kind)
        }
        var ids: [InstanceID] = []
        for kind in Set(params.kinds) where hasProvider(kind) {
            ids.append(contentsOf: scheduler.instances(ofKind: kind))
        }
        return try await requestReload(of: ids, userInitiated: params.userInitiated ?? false)
    }

    /// `reloadAllTimelines()`; from a kind's owner, of the kinds in `onlyKinds`.
    public func reloadAllTimelines(_ params: ReloadAllParams, onlyKinds: Set<String>? = nil) async throws(RPCError) -> ReloadResult {
        let ids = instances.values.filter { hasProvider($0.kind) && onlyKinds?.contains($0.kind) ?? true }.map(\.id)
        return try await requestReload(of: ids, userInitiated: params.userInitiated ?? false)
    }

    /// `targets`: instances whose kind has a provider.
    private func requestReload(of targets: [InstanceID], userInitiated: Bool) async throws(RPCError) -> ReloadResult {
        let now = self.now
        let reason: ReloadReason = userInitiated ? .userInitiated : .requested
        let ids = targets.sorted()
        // Persist what the scheduler will keep, so a restart reloads the same way. A request
        // that merges into one already stored and still waiting changes nothing durable, so
        // it needs no write: repeated reloads of a kind cost no fsync until the launch.
        var kept: [(id: InstanceID, request: StoredRequest)] = []
        for id in ids {
            let merged = scheduler.mergedRequest(id, reason: reason, at: now)
            if let stored = storedRequests[id], let pending = scheduler.pendingRequest(id),
                pending == merged, stored.reason == merged.reason, stored.wanted == merged.wanted
            {
                continue
            }
            kept.append((id, StoredRequest(reason: merged.reason, wanted: merged.wanted, sequence: nextRequestSequence())))
        }
        try await commit(kept.map { .putRequest($0.id, reason: $0.request.reason, wanted: $0.request.wanted, sequence: $0.request.sequence) })
        for (id, stored) in kept where instances[id] != nil {
            scheduler.request(id, reason: reason, at: now)
            storedRequests[id] = stored
        }
        // Logged when it changed the schedule; one merged into a waiting request is only traced.
        logger.log(
            level: kept.isEmpty ? .debug : .info, "reload requested",
            metadata: ["instances": "\(ids.count)", "new": "\(kept.count)", "reason": "\(reason.rawValue)"])
        scheduleChanged()
        return ReloadResult(instances: ids)
    }

    /// Puts a timeline in memory and in the schedule (after it is stored).
    func install(_ timeline: Timeline, for instance: WidgetInstance, receivedAt: Date, fromProvider: Bool, history: RelevanceHistory) {
        timelines[instance.id] = StoredTimeline(timeline: timeline, receivedAt: receivedAt)
        relevance[instance.id] = history.isEmpty ? nil : history
        dirtyStacks.formUnion(stacks(containing: instance.id))
        scheduler.setPolicyDue(
            instance.id, policyDue(for: instance.kind, timeline, receivedAt: receivedAt, fromProvider: fromProvider))
        scheduler.setNextEntryChange(instance.id, timeline.nextEntryDate(after: now))
    }
}

extension Engine {
    /// The instance's relevance history once `timeline` arrives at `now`, pruned to the window,
    /// and the settled rows to store for it (appended and deleted, not the whole history).
    func relevanceAfter(_ timeline: Timeline, for id: InstanceID, at now: Date) -> (RelevanceHistory, RelevanceRowChange) {
        let before = relevance[id] ?? RelevanceHistory()
        var history = before
        history.install(timeline, at: now)
        history.prune(before: now.addingTimeInterval(-rotationSettings.relevanceWindow), now: now)
        return (history, history.settledChange(since: before))
    }
}
