import Foundation

extension DaemonState {
    /// Takes everything due at `now` off the schedule: entry changes to tell at once (their
    /// stacks marked for evaluation), and reload batches as launches to start. Stacks whose
    /// recheck has come are marked too.
    ///
    /// After the wall clock jumped forward, every entry change in between is told, each at its
    /// own date and in order for each instance: an entry's next change is set from its own
    /// date, so the pop is repeated until nothing is due.
    ///
    /// `entries` false: entry-change events carry no entry, for a dry run that tells nobody
    /// what is shown and need not make every entry's content.
    public mutating func takeDue(at now: Date, entries: Bool = true) -> DueWork {
        var work = DueWork()
        dirtyStacks.formUnion(stacks.takeDue(at: now))
        while true {
            let popped = scheduler.popDue(now: now, in: &instances)
            guard !popped.isEmpty else { break }
            work.popped += popped.count
            for event in popped {
                switch event {
                case .entryChange(let id, let date, let handle):
                    // Only the timeline is read: a copy of the whole record would retain every field of it.
                    guard let stored = instances.read(handle, { $0.pointee.timeline }) else { continue }
                    let timeline = stored.timeline
                    work.events.append(.entryChange(id, date: date, entry: entries ? timeline.currentEntry(at: date) : nil))
                    scheduler.setNextEntryChange(handle, timeline.nextEntryDate(after: date))
                    dirtyStacks.formUnion(stacks.containing(id))
                case .reload(let batch):
                    work.launches += launches(for: batch)
                }
            }
        }
        return work
    }

    /// One wake-up, one launch per group: everything for a batch-capable provider, else the
    /// instances that would get the same answer (same kind, family and configuration), so a
    /// provider that answers one Timeline never serves it to a configuration it did not see.
    private mutating func launches(for batch: ReloadBatch) -> [Launch] {
        // Popped in this step: every member's handle is its record's.
        let members = batch.members.map { member in (member, instances[member.handle]) }
        guard let first = members.first, let provider = descriptors[first.1.kind]?.provider else {
            // The kind lost its provider (descriptors read again): nothing can reload these.
            for member in batch.members { scheduler.completed(member.handle, policyDue: nil, in: &instances) }
            return []
        }
        var groups: [[(ReloadMember, InstanceRecord)]] = []
        if provider.batch {
            groups = [members]
        } else {
            // Found by hash: comparing each member with every group so far is quadratic in the
            // configurations of a large batch.
            var groupOf: [LaunchGroupKey: Int] = [:]
            for member in members {
                let instance = member.1.instance
                let key = LaunchGroupKey(kind: instance.kind, family: instance.family, configuration: instance.configuration)
                if let index = groupOf[key] {
                    groups[index].append(member)
                } else {
                    groupOf[key] = groups.count
                    groups.append([member])
                }
            }
        }
        return groups.map { group in
            counters.launch += 1
            return Launch(
                token: counters.launch, date: batch.date, provider: descriptors[group[0].1.kind]?.provider ?? provider,
                members: group.map(\.1.instance), reasons: group.map(\.0.reason), consumed: group.map(\.1.request?.sequence),
                seen: group.map(\.1.replaced), wanted: group.map(\.0.wanted))
        }
    }

    /// Applies what a launch produced: each instance gets its new timeline, or keeps its
    /// previous one and retries after the minimum spacing when the launch (or its own answer)
    /// failed. An answer for an instance pushed to or configured since the launch began is
    /// dropped: a timeline is replaced only by one produced for a later request. The stacks of
    /// the reloaded instances are evaluated in the same plan.
    ///
    /// `logFailures` false: the failures are not logged here (a timeline that could not be
    /// stored was logged once by the storage fault). `evaluate` false: the stacks are only
    /// marked for evaluation, for when every launch of the same instant is in (the virtual
    /// clock's rule).
    public func planLaunchResult(
        _ launch: Launch, outcomes: [MemberOutcome], at receivedAt: Date, logFailures: Bool = true, evaluate: Bool = true
    ) -> Plan {
        var plan = Plan()
        let kind = launch.kind
        let limits = settings.limits
        var report = FailureReport()
        var reloaded: [InstanceID] = []
        var inputs: [InstanceID: RankingInput] = [:]
        var dropped: [InstanceID] = []
        for (index, member) in launch.members.enumerated() {
            let id = member.id
            plan.keys.take(.instance(id))
            let reason = launch.reasons[index]
            plan.store.append(.recordReload(id, date: launch.date, reason: reason, budgeted: scheduler.budget.applies(to: reason)))
            guard let record = instances[id] else { continue }
            let consumed = launch.consumed[index]
            var outcome = outcomes[index]
            if case .timeline(let timeline) = outcome, let exceeded = limits.check(timeline) {
                // A timeline over [limits] is a bad answer like any other: the previous one stays.
                outcome = .failed(exceeded.description, cause: "limit")
            } else if case .timeline(let timeline) = outcome,
                let problem = actionProblem(timeline, kind: record.kind, family: record.instance.family)
            {
                outcome = .failed("invalid answer: timeline.\(problem)", cause: "actions")
            } else if case .timeline(let timeline) = outcome, let problem = clueProblem(timeline, kind: record.kind) {
                outcome = .failed("invalid answer: timeline.\(problem)", cause: "clues")
            }
            if record.replaced != launch.seen[index] {
                // The request it carried out is done; what replaced its answer stands.
                if let consumed { plan.store.append(.deleteRequest(id, sequence: consumed)) }
                dropped.append(id)
                let current = record.timeline.flatMap { policyDue(for: record.kind, $0.timeline, receivedAt: $0.receivedAt) }
                plan.effect { state in
                    state.forgetRequest(id, consumed: consumed)
                    state.scheduler.completed(id, policyDue: current, in: &state.instances)
                    state.counters.droppedAnswers += 1
                }
                continue
            }
            switch outcome {
            case .timeline(let timeline):
                let (history, rows) = relevanceAfter(timeline, record.relevance, at: receivedAt)
                plan.store.append(.putTimeline(id, timeline, receivedAt: receivedAt))
                if !rows.isEmpty { plan.store.append(.updateRelevance(id, rows)) }
                // A failed launch leaves its request stored: a restart carries it out.
                if let consumed { plan.store.append(.deleteRequest(id, sequence: consumed)) }
                if let streak = record.failures { report.recovered(id, after: streak) }
                let policyDue = policyDue(for: record.kind, timeline, receivedAt: receivedAt, fromProvider: true)
                plan.effect { state in
                    state.forgetRequest(id, consumed: consumed)
                    state.instances.update(id) { record in
                        record.failures = nil
                        record.endInvalidation(consumed: consumed)
                    }
                    state.install(timeline, for: id, receivedAt: receivedAt, history: history, policyDue: policyDue)
                    state.scheduler.completed(id, policyDue: policyDue, in: &state.instances)
                }
                inputs[id] = RankingInput(instance: id, history: history, matchedDonations: record.matched)
                reloaded.append(id)
            case .failed(let message, let cause):
                let (streak, verdict) = FailureStreak.after(record.failures, cause: cause, message: message)
                report.add(id, message, verdict: verdict)
                let policy = record.timeline.flatMap { policyDue(for: record.kind, $0.timeline, receivedAt: $0.receivedAt) }
                // A failing provider is retried after the minimum spacing, even when the failed
                // load was exempt or the budget is off, so it cannot spin; the budget applies on top.
                let retry = receivedAt.addingTimeInterval(max(settings.minimumSpacing, 1))
                plan.effect { state in
                    state.instances.update(id) { record in
                        record.failures = streak
                        record.endInvalidation(consumed: consumed)
                    }
                    state.scheduler.failed(id, policyDue: policy, retryAt: retry, in: &state.instances)
                }
            }
        }
        plan.store.append(.pruneReloads(before: receivedAt.addingTimeInterval(-ReloadBudget.window)))
        if !dropped.isEmpty {
            let dropped = dropped
            plan.note(
                .debug, "provider answer dropped: the instance was pushed to or configured after the launch began",
                ["kind": kind, "instances": dropped.joined(separator: ",")])
        }
        if logFailures { plan.notes += report.notes(kind: kind) }
        for (failure, ids) in report.failures {
            plan.events.append(.reloadFailed(kind: kind, instances: ids, error: failure, date: receivedAt))
        }
        if !reloaded.isEmpty {
            plan.events.append(.reload(kind: kind, instances: reloaded, date: receivedAt))
            let ids = reloaded.joined(separator: ",")
            plan.note(.info, "timelines reloaded", ["kind": kind, "instances": ids])
        }
        var evaluated = Set<String>()
        for id in reloaded { evaluated.formUnion(stacks.containing(id)) }
        if evaluate {
            self.evaluate(evaluated.sorted(), at: receivedAt, inputs: inputs, into: &plan)
        } else if !evaluated.isEmpty {
            let marked = evaluated
            plan.effect { $0.dirtyStacks.formUnion(marked) }
        }
        return plan
    }

    /// The launch's request is done; a newer one made while it ran stays.
    mutating func forgetRequest(_ id: InstanceID, consumed: Int64?) {
        guard let consumed else { return }
        instances.update(id) { record in
            if record.request?.sequence == consumed { record.request = nil }
        }
    }
}

/// What makes two instances get the same provider answer: kind, family and configuration.
private struct LaunchGroupKey: Hashable {
    var kind: String
    var family: WidgetFamily
    var configuration: [String: JSONValue]
}
