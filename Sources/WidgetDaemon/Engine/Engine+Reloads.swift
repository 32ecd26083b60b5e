import Foundation
import Logging
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// Carries out everything due at `now`: entry changes at once, reload batches as provider
    /// launches that run while the actor keeps serving. Returns how many events there were.
    ///
    /// After the wall clock jumped forward, every entry change in between is carried out, each
    /// at its own date and in order for each instance: an entry's next change is set from its
    /// own date, so the pop is repeated until nothing is due.
    @discardableResult
    func processDue() -> Int {
        guard !stopping else { return 0 }
        let now = self.now
        for (name, date) in stackRecheck where date <= now {
            stackRecheck[name] = nil
            dirtyStacks.insert(name)
        }
        var count = 0
        while true {
            let events = scheduler.popDue(now: now)
            guard !events.isEmpty else { break }
            count += events.count
            for event in events {
                switch event {
                case .entryChange(let id, let date):
                    entryChanged(id, at: date)
                    dirtyStacks.formUnion(stacks(containing: id))
                case .reload(let batch):
                    launch(batch)
                }
            }
        }
        return count
    }

    /// Called by the scheduler loop: process what is due and say when to wake next.
    /// Notes when the loop will wake, so requests ring it only for something earlier.
    public func tick() async -> (next: Date?, now: Date, virtual: Bool) {
        noticeWallClockStep()
        if timeZoneChanges.takeRing() || !timeZoneWatched { refreshTimeZone() }
        processDue()
        await evaluateDirtyStacks()
        let next = nextWake()
        loopWakesAt = next
        publishStatus(next: next)
        return (next, now, isVirtual)
    }

    /// The earliest instant anything is due: a reload, an entry change, or a stack recheck.
    func nextWake() -> Date? {
        [scheduler.nextDeadline(), stackRecheck.values.min()].compactMap { $0 }.min()
    }

    /// Waits until every running launch has been applied.
    func drainRunning() async {
        while let task = running.values.first {
            await task.value
        }
    }

    private func entryChanged(_ id: InstanceID, at date: Date) {
        guard let stored = timelines[id] else { return }
        let current = stored.timeline.currentIndex(at: date)
        events.publish(WidgetEvent(type: .entryChange, date: date, instance: id, entry: current.map { stored.timeline.entries[$0] }))
        logger.debug("entry change", metadata: ["instance": "\(id)", "date": "\(ISO8601.string(from: date))", "entry": "\(current ?? -1)"])
        scheduler.setNextEntryChange(id, stored.timeline.nextEntryDate(after: date))
    }

    /// One wake-up, one launch per group: everything for a batch-capable provider, else the
    /// instances that would get the same answer (same kind, family and configuration), so a
    /// provider that answers one Timeline never serves it to a configuration it did not see.
    private func launch(_ batch: ReloadBatch) {
        let members = batch.members.compactMap { instances[$0.instance] }
        guard let first = members.first, let provider = catalog[first.kind]?.provider else {
            // The kind lost its provider (descriptors reloaded): nothing can reload these.
            for member in batch.members { scheduler.completed(member.instance, policyDue: nil) }
            return
        }
        if provider.batch {
            launch(batch, members: members, provider: provider)
            return
        }
        var groups: [[WidgetInstance]] = []
        for member in members {
            if let index = groups.firstIndex(where: {
                $0[0].kind == member.kind && $0[0].family == member.family && $0[0].configuration == member.configuration
            }) {
                groups[index].append(member)
            } else {
                groups.append([member])
            }
        }
        for group in groups {
            let ids = Set(group.map(\.id))
            var part = batch
            part.members = batch.members.filter { ids.contains($0.instance) }
            launch(part, members: group, provider: catalog[group[0].kind]?.provider ?? provider)
        }
    }

    private func launch(_ batch: ReloadBatch, members: [WidgetInstance], provider: ProviderSpec) {
        let first = members[0]
        nextLaunchToken += 1
        let token = nextLaunchToken
        let request = ProviderRequest(verb: "timeline", members: members, now: batch.date)
        let invocation = ProviderInvocation(
            exec: provider.exec, verb: "timeline",
            request: (try? WidgetJSON.encoder.encode(request)) ?? Data("{}".utf8),
            timeout: provider.timeout ?? settings.providerTimeout, maxAnswerBytes: settings.maxAnswerBytes)
        logger.debug(
            "provider launch",
            metadata: ["kind": "\(first.kind)", "instances": "\(members.map(\.id).joined(separator: ","))",
                       "reasons": "\(batch.members.map(\.reason.rawValue).joined(separator: ","))"])
        let runner = self.runner
        // The persisted requests this launch carries out; newer ones made while it runs stay.
        let consumed = Dictionary(uniqueKeysWithValues: members.compactMap { member in
            storedRequests[member.id].map { (member.id, $0.sequence) }
        })
        running[token] = Task {
            let outcome: Result<[Result<Timeline, ProviderFailure>], ProviderFailure>
            do throws(ProviderFailure) {
                let data = try await runner.run(invocation)
                outcome = .success(try TimelineAnswer.timelines(from: data, count: members.count))
            } catch {
                outcome = .failure(error)
            }
            await self.finish(batch, members: members, outcome: outcome, consumed: consumed, token: token)
        }
    }

    /// Applies a launch: each instance gets its new timeline, or keeps its previous one and
    /// retries after the minimum spacing when the launch (or its own answer) failed.
    private func finish(
        _ batch: ReloadBatch, members: [WidgetInstance], outcome: Result<[Result<Timeline, ProviderFailure>], ProviderFailure>,
        consumed: [InstanceID: Int64], token: UInt64
    ) async {
        defer {
            running[token] = nil
            doorbell.ring()
        }
        if stopping, case .failure = outcome {
            // Killed by the shutdown, not by its own fault: nothing to record, charge or retry.
            return
        }
        var results: [MemberOutcome]
        switch outcome {
        case .success(let answers):
            let limits = settings.limits
            results = answers.map { answer in
                switch answer {
                // A timeline over [limits] is a bad answer like any other: the previous one stays.
                case .success(let timeline): limits.check(timeline).map { .failed($0.description, cause: "limit") } ?? .timeline(timeline)
                case .failure(let failure): .failed(failure.description, cause: failure.cause)
                }
            }
        case .failure(let failure):
            results = Array(repeating: .failed(failure.description, cause: failure.cause), count: members.count)
        }
        let reasons = Dictionary(batch.members.map { ($0.instance, $0.reason) }, uniquingKeysWith: { first, _ in first })
        let receivedAt = now
        var changes: [StoreChange] = []
        // Computed once: what is stored is exactly what is installed.
        var histories: [InstanceID: RelevanceHistory] = [:]
        for (member, result) in zip(members, results) {
            let reason = reasons[member.id] ?? .policy
            changes.append(.recordReload(member.id, date: batch.date, reason: reason, budgeted: scheduler.budget.applies(to: reason)))
            if case .timeline(let timeline) = result {
                changes.append(.putTimeline(member.id, timeline, receivedAt: receivedAt))
                let (history, rows) = relevanceAfter(timeline, for: member.id, at: receivedAt)
                histories[member.id] = history
                if !rows.isEmpty { changes.append(.updateRelevance(member.id, rows)) }
                if let sequence = consumed[member.id] { changes.append(.deleteRequest(member.id, sequence: sequence)) }
            }
        }
        changes.append(.pruneReloads(before: receivedAt.addingTimeInterval(-ReloadBudget.window)))
        var stored = true
        do {
            try await store.apply(changes)
            storageWorked()
        } catch {
            // Nothing of this launch is installed: memory keeps matching the store.
            storageFailed(error)
            stored = false
            results = Array(repeating: .failed("state not saved: \(error)", cause: "storage"), count: members.count)
        }

        var reloaded: [InstanceID] = []
        var report = FailureReport()
        for (member, result) in zip(members, results) {
            guard let current = instances[member.id] else { continue }
            switch result {
            case .timeline(let timeline):
                if let sequence = consumed[member.id], storedRequests[member.id]?.sequence == sequence { storedRequests[member.id] = nil }
                lastErrors[member.id] = nil
                if let streak = failureStreaks.recovered(member.id) { report.recovered(member.id, after: streak) }
                install(
                    timeline, for: current, receivedAt: receivedAt, fromProvider: true,
                    history: histories[member.id] ?? relevanceAfter(timeline, for: member.id, at: receivedAt).0)
                scheduler.completed(
                    member.id, policyDue: policyDue(for: current.kind, timeline, receivedAt: receivedAt, fromProvider: true))
                reloaded.append(member.id)
            case .failed(let failure, let cause):
                lastErrors[member.id] = failure
                report.add(member.id, failure, verdict: failureStreaks.failed(member.id, cause: cause, message: failure))
                let previous = timelines[member.id]
                let policy = previous.flatMap { policyDue(for: member.kind, $0.timeline, receivedAt: $0.receivedAt) }
                // A failing provider is retried after the minimum spacing, even when the failed
                // load was exempt or the budget is off, so it cannot spin; the budget applies on top.
                scheduler.failed(member.id, policyDue: policy, retryAt: now.addingTimeInterval(max(settings.minimumSpacing, 1)))
            }
        }
        let kind = members.first?.kind ?? ""
        // A timeline that could not be stored was logged once by `storageFailed`.
        if stored { report.log(to: logger, kind: kind) }
        for (failure, ids) in report.failures {
            events.publish(WidgetEvent(type: .reloadFailed, date: receivedAt, instances: ids, kind: kind, error: failure))
        }
        if !reloaded.isEmpty {
            events.publish(WidgetEvent(type: .reload, date: receivedAt, instances: reloaded, kind: kind))
            logger.info("timelines reloaded", metadata: ["kind": "\(kind)", "instances": "\(reloaded.joined(separator: ","))"])
        }
    }
}

/// What one launch did for one instance.
private enum MemberOutcome {
    case timeline(Timeline)
    case failed(String, cause: String)
}
