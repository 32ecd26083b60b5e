import Foundation

extension DaemonState {
    /// Installs a timeline for an instance from outside (`widgetctl push`, an app). A provider
    /// answer to a launch that began before this is dropped when it arrives.
    public mutating func planPush(_ id: InstanceID, _ timeline: WidgetTimeline, at now: Date) throws(StateError) -> Plan {
        let record = try record(id)
        if let exceeded = settings.limits.check(timeline) { throw .limitExceeded(exceeded) }
        if let problem = actionProblem(timeline, kind: record.kind, family: record.instance.family) {
            throw .invalidParams("params.timeline.\(problem)")
        }
        if let problem = clueProblem(timeline, kind: record.kind) { throw .invalidParams("params.timeline.\(problem)") }
        let (history, rows) = relevanceAfter(timeline, record.relevance, at: now)
        var plan = Plan()
        plan.store.append(.putTimeline(id, timeline, receivedAt: now))
        if !rows.isEmpty { plan.store.append(.updateRelevance(id, rows)) }
        plan.keys.take(.instance(id))
        let change = nextChange()
        let policyDue = policyDue(for: record.kind, timeline, receivedAt: now)
        plan.effect { state in
            state.install(timeline, for: id, receivedAt: now, history: history, policyDue: policyDue)
            state.instances.update(id) { record in
                record.replaced = change
                // New content from the app: what was out of date is replaced.
                record.invalidation = nil
            }
        }
        // A push is no launch, so no `reload` event tells of it: hosts learn the new entry here.
        plan.events.append(.entryChange(id, date: now, entry: timeline.currentEntry(at: now)))
        plan.note(.info, "timeline pushed", ["instance": id, "entries": "\(timeline.entries.count)"])
        evaluate(
            stacks.containing(id), at: now,
            inputs: [id: RankingInput(instance: id, history: history, matchedDonations: record.matched)], into: &plan)
        return plan
    }

    /// Puts a stored timeline in the record and in the schedule.
    mutating func install(_ timeline: WidgetTimeline, for id: InstanceID, receivedAt: Date, history: RelevanceHistory, policyDue: Date?) {
        guard let handle = instances.handle(of: id) else { return }
        instances.update(handle) { record in
            record.timeline = StoredTimeline(timeline: timeline, receivedAt: receivedAt)
            record.relevance = history
        }
        scheduler.setPolicyDue(handle, policyDue, in: &instances)
        scheduler.setNextEntryChange(handle, timeline.nextEntryDate(after: receivedAt))
    }

    /// The instance's relevance history once `timeline` arrives at `now`, pruned to the window,
    /// and the settled rows to store for it (appended and deleted, not the whole history).
    func relevanceAfter(
        _ timeline: WidgetTimeline, _ before: RelevanceHistory, at now: Date
    ) -> (RelevanceHistory, RelevanceRowChange) {
        var history = before
        history.install(timeline, at: now)
        history.prune(before: now.addingTimeInterval(-settings.rotation.relevanceWindow), now: now)
        return (history, history.settledChange(since: before))
    }
}
