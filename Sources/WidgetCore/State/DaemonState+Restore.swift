import Foundation

extension DaemonState {
    /// Rebuilds the state from what the store holds (after any restart). Also returns what to
    /// store again in the background (configurations brought up to their descriptors, retention
    /// applied), which derives from the state, so nothing is lost if it is not stored.
    public mutating func restore(_ persisted: consuming PersistedState, at now: Date) -> (background: [StoreChange], notes: [Note]) {
        var records: [InstanceRecord] = []
        records.reserveCapacity(persisted.instances.count)
        scheduler.reserveCapacity(persisted.instances.count)
        let window = settings.rotation.relevanceWindow
        // Most of these are empty: a million lookups in an empty dictionary still hash a million ids.
        let (budgeted, requests) = (persisted.budgetedReloads, persisted.requests)
        let (settled, lastVisible, fresh) = (persisted.settledRelevance, persisted.lastVisible, persisted.freshRelevance)
        // Kinds are few and repeat: each one's descriptor is looked up once, not per instance.
        var kind: (name: String, hasProvider: Bool, providerKey: String)?
        for (index, instance) in persisted.instances.enumerated() {
            var record = InstanceRecord(instance: instance)
            if kind?.name != instance.kind {
                kind = (instance.kind, hasProvider(instance.kind), providerKey(for: instance.kind))
            }
            let hasProvider = kind!.hasProvider
            if !budgeted.isEmpty, let dates = budgeted[instance.id] {
                // Reloads stored after `now` (the clock went back while widgetd was down) count as made now.
                record.timing = ReloadTiming(history: BudgetHistory(dates.map { min($0, now) }))
            }
            // Taken, not copied: a copy would count a reference on every timeline's buffer.
            let stored = index < persisted.timelines.count ? persisted.timelines[index].take() : nil
            if let stored {
                record.timeline = stored
                let samples = settled.isEmpty ? [] : settled[instance.id] ?? []
                var history = RelevanceHistory(
                    settled: samples, timeline: stored.timeline, fresh: fresh.isEmpty ? nil : fresh[instance.id])
                if !history.isEmpty {
                    history.prune(before: now.addingTimeInterval(-window), now: now)
                    record.relevance = history
                }
                record.timing.policyDue = policyDue(hasProvider: hasProvider, stored.timeline, receivedAt: stored.receivedAt)
            }
            if hasProvider {
                if !requests.isEmpty, let request = requests[instance.id] {
                    record.timing.request = (request.reason, request.wanted)
                    record.request = request
                    counters.request = max(counters.request, request.sequence)
                } else if stored == nil {
                    record.timing.request = (.initial, now)
                }
            }
            if !lastVisible.isEmpty, let shown = lastVisible[instance.id] {
                // No host's report survives a restart (the record is not `visible`): each host
                // shows again what it shows.
                record.lastVisible = shown
            }
            records.append(record)
        }
        instances.put(contentsOf: records)
        // The record holds its timing; the slot, numbered by the record's handle, is placed by it.
        kind = nil
        for position in 0..<instances.count {
            let handle = instances.handle(atPosition: position)
            let (name, next) = instances.read(handle) { ($0.pointee.kind, $0.pointee.timeline?.timeline.nextEntryDate(after: now)) }
            if kind?.name != name { kind = (name, hasProvider(name), providerKey(for: name)) }
            scheduler.add(handle, kind: name, providerKey: kind!.providerKey, in: instances)
            if let next { scheduler.setNextEntryChange(handle, next) }
        }
        failedInstances = Dictionary(persisted.failedInstances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var (background, notes) = normalizeConfigurations()
        for donation in persisted.donations { donations.add(donation, calendar: calendar) }
        for var stack in persisted.stacks {
            // A member whose instance is gone (removed before the stack was rewritten) goes.
            for gone in stack.instances where !instances.contains(gone) { stack = Self.removing(gone, from: stack, at: now) }
            putStack(stack)
            dirtyStacks.insert(stack.name)
        }
        background += retention()
        let (count, timelines) = (instances.count, instances.timelines)
        // Each row that did not decode, once, with what to do about it.
        notes += persisted.quarantined.map(\.note)
        let (failed, quarantined) = (failedInstances.count, persisted.quarantined.count)
        notes.append(Note(
            level: .info, message: "state restored",
            metadata: ["instances": "\(count)", "timelines": "\(timelines)"]
                .merging(quarantined == 0 ? [:] : ["failed_instances": "\(failed)", "rows_left_out": "\(quarantined)"]) { $1 }))
        notes += overLimitNotes()
        return (background, notes)
    }

    /// Descriptors and settings read again (SIGHUP). Configurations follow their descriptors,
    /// kinds that gained a provider are scheduled, and every stack is evaluated again (weights,
    /// limits, intent types and configurations may all have changed).
    public mutating func reload(
        descriptors newDescriptors: [String: WidgetDescriptor], settings newSettings: DaemonSettings?, at now: Date
    ) -> (background: [StoreChange], notes: [Note]) {
        descriptors = newDescriptors
        instances.setIntentSchemas(intentSchemas)
        var (background, notes) = normalizeConfigurations()
        if let newSettings {
            settings = newSettings
            scheduler.coalescingWindow = newSettings.coalescingWindow
            scheduler.updateBudget(newSettings.reloadBudget(in: context, visible: instances.visible), in: instances)
            background += retention()
            notes += overLimitNotes()
        }
        for record in instances.inPlacementOrder {
            scheduler.updateProvider(record.id, providerKey: providerKey(for: record.kind), in: instances)
            // A kind that (re)gained a provider picks up its schedule where its timeline says.
            guard hasProvider(record.kind), scheduler.pendingReload(for: record.id, in: instances) == nil,
                !record.timing.inFlight
            else { continue }
            if let stored = record.timeline {
                scheduler.setPolicyDue(record.id, policyDue(for: record.kind, stored.timeline, receivedAt: stored.receivedAt), in: &instances)
            } else {
                scheduler.request(record.id, reason: .initial, at: now, in: &instances)
            }
        }
        refreshAllMatches()
        dirtyStacks.formUnion(stacks.names)
        return (background, notes)
    }

    /// A state stored under larger limits (or before donations and the log had any) is
    /// trimmed to the current ones: in memory at once, on disk with the changes returned.
    private mutating func retention() -> [StoreChange] {
        trimDonations()
        return [.pruneDonations(keep: settings.limits.maxDonations), .pruneDecisions(keep: settings.limits.maxLogRows)]
    }

    /// A state that holds more than a limit allows (the limit was lowered) is loaded whole;
    /// only new instances and stacks are refused. Said once, at start or on SIGHUP.
    private func overLimitNotes() -> [Note] {
        let limits = settings.limits
        var notes: [Note] = []
        if instances.count > limits.maxInstances {
            notes.append(Note(
                level: .warning, message: "more instances stored than max-instances allows; adding is refused until some are removed",
                metadata: ["instances": "\(instances.count)", "max": "\(limits.maxInstances)"]))
        }
        if stacks.count > limits.maxStacks {
            notes.append(Note(
                level: .warning, message: "more stacks stored than max-stacks allows; creating is refused until some are removed",
                metadata: ["stacks": "\(stacks.count)", "max": "\(limits.maxStacks)"]))
        }
        return notes
    }
}
