import Foundation

extension DaemonState {
    /// The instances `reloadTimelines(ofKind:)` reloads: those of the kinds with a provider,
    /// and the instances named one by one. An unknown kind or instance, a kind whose provider
    /// cannot be run, or an instance named whose kind has no provider (a reload it asked for by
    /// name could never happen) refuses the whole request.
    public func reloadTargets(kinds: [String], instances named: [InstanceID] = []) throws(StateError) -> [InstanceID] {
        guard !kinds.isEmpty || !named.isEmpty else {
            throw .invalidParams("params: name at least one kind (kinds) or instance (instances)")
        }
        for kind in kinds {
            guard let descriptor = descriptors[kind] else { throw .unknownKind(kind) }
            if let problem = descriptor.problem { throw .unusableKind(kind, problem: problem) }
        }
        // An instance has one kind, so the instances of distinct kinds never overlap: only a
        // kind named twice, or an instance named beside its kind, could repeat one. A request
        // of one kind (the common one) builds no set at all.
        var ids: [InstanceID] = []
        var kindsTaken = Set<String>()
        for kind in kinds where hasProvider(kind) && (kinds.count == 1 || kindsTaken.insert(kind).inserted) {
            ids += scheduler.instances(ofKind: kind, in: instances)
        }
        if !named.isEmpty {
            var taken = Set(ids)
            for (index, id) in named.enumerated() {
                guard let kind = instances.read(id, { $0.pointee.kind }) else { throw .unknownInstance(id) }
                if let problem = descriptors[kind]?.problem { throw .unusableKind(kind, problem: problem) }
                guard hasProvider(kind) else {
                    throw .invalidParams("params.instances[\(index)]: \(id) is of kind \(kind), which has no provider: its timelines come only from push")
                }
                if taken.insert(id).inserted { ids.append(id) }
            }
        }
        return ids.sorted()
    }

    /// The instances `reloadAllTimelines()` reloads; from a kind's owner, those of `onlyKinds`.
    /// Kinds whose provider cannot be run now (`problem`) are left out: their launches could
    /// only fail, and naming them one by one still says why.
    public func reloadAllTargets(onlyKinds: Set<String>?) -> [InstanceID] {
        instances.all.filter { record in
            hasProvider(record.kind) && descriptors[record.kind]?.problem == nil && onlyKinds?.contains(record.kind) ?? true
        }.map(\.id).sorted()
    }

    /// Makes `ids` due now (docs/overview.md): a `requested` reload under the
    /// budget, or a `userInitiated` one exempt from it. What the scheduler will keep is stored,
    /// so a restart reloads the same way; a request that merges into one already stored and
    /// still waiting changes nothing durable and needs no write, so repeated reloads of a kind
    /// cost no sync until the launch.
    public mutating func planReload(_ ids: [InstanceID], userInitiated: Bool, at now: Date) -> Plan {
        planReload(ids, reason: userInitiated ? .userInitiated : .requested, at: now)
    }

    /// `planReload` for a reason of the caller's (an action's reload).
    mutating func planReload(_ ids: [InstanceID], reason: ReloadReason, at now: Date) -> Plan {
        var plan = Plan()
        var kept: [(InstanceID, StoredRequest)] = []
        for id in ids {
            // Read in place: the two fields, not a copy of the whole record.
            guard let (stored, pending) = instances.read(id, { ($0.pointee.request, $0.pointee.timing.request) }) else { continue }
            let merged = scheduler.mergedRequest(id, reason: reason, at: now, in: instances)
            if let stored, let pending,
                pending == merged, stored.reason == merged.reason, stored.wanted == merged.wanted
            {
                continue
            }
            let request = StoredRequest(reason: merged.reason, wanted: merged.wanted, sequence: nextRequestSequence())
            kept.append((id, request))
            plan.store.append(.putRequest(id, reason: request.reason, wanted: request.wanted, sequence: request.sequence))
            plan.keys.take(.instance(id))
        }
        if !kept.isEmpty {
            let kept = kept
            plan.effect { state in
                for (id, request) in kept where state.instances.contains(id) {
                    state.scheduler.request(id, reason: reason, at: now, in: &state.instances)
                    state.instances.update(id) { $0.request = request }
                }
            }
        }
        // Logged when it changed the schedule; one merged into a waiting request is only traced.
        let (asked, new) = (ids.count, kept.count)
        plan.note(new == 0 ? .debug : .info, "reload requested", ["instances": "\(asked)", "new": "\(new)", "reason": reason.rawValue])
        return plan
    }
}
