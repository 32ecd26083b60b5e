import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Installs a timeline for an instance from outside (`widgetctl push`, an app).
    func push(_ params: PushParams, _ call: Reply<PushResult>) {
        change(call, { () throws(RPCError) in
            try self.checked { () throws(StateError) in try self.state.planPush(params.id, params.timeline, at: self.now) }
        }, answer: {
            PushResult(
                instance: params.id, entries: params.timeline.entries.count,
                nextReload: self.state.scheduler.pendingReload(for: params.id)?.due)
        })
    }

    func timeline(_ params: InstanceParams, _ call: Reply<TimelineResult>) {
        guard let record = state.instances[params.id] else {
            guard let failed = state.failedInstances[params.id] else { return call.fail(.unknownInstance(params.id)) }
            var result = TimelineResult(
                instance: failed.id, kind: failed.kind, family: failed.family ?? .systemSmall, entries: [], policy: nil,
                currentIndex: nil, currentEntry: nil, nextEntryChange: nil, nextReload: nil, receivedAt: nil,
                lastError: failed.reason)
            result.failure = failed.reason
            return call.succeed(result)
        }
        let stored = record.timeline
        let now = self.now
        var result = TimelineResult(
            instance: record.id, kind: record.kind, family: record.instance.family,
            entries: stored.map { Array($0.timeline.entries) } ?? [], policy: stored?.timeline.policy,
            currentIndex: stored?.timeline.currentIndex(at: now), currentEntry: stored?.timeline.currentEntry(at: now),
            nextEntryChange: stored?.timeline.nextEntryDate(after: now),
            nextReload: state.scheduler.pendingReload(for: record.id), receivedAt: stored?.receivedAt,
            lastError: record.lastError)
        result.invalidated = record.invalidation != nil ? true : nil
        call.succeed(result)
    }

    /// `reloadTimelines(ofKind:)` for each kind, and for each instance named; an unknown kind or
    /// instance refuses the whole request. The launch starts while the request is being stored;
    /// the answer waits for the store.
    func reloadTimelines(_ params: ReloadTimelinesParams, _ call: Reply<ReloadResult>) {
        change(call, applyFirst: true, { () throws(RPCError) in
            let ids = try self.checked { () throws(StateError) in
                try self.state.reloadTargets(kinds: params.kinds, instances: params.instances ?? [])
            }
            return (self.state.planReload(ids, userInitiated: params.userInitiated ?? false, at: self.now), ids)
        }, answer: { ids in ReloadResult(instances: ids) })
    }

    /// `reloadAllTimelines()`; from a kind's owner, of the kinds in its scope.
    func reloadAllTimelines(_ params: ReloadAllParams, _ call: Reply<ReloadResult>) {
        change(call, applyFirst: true, { () throws(RPCError) in
            let ids = self.state.reloadAllTargets(onlyKinds: call.scope)
            return (self.state.planReload(ids, userInitiated: params.userInitiated ?? false, at: self.now), ids)
        }, answer: { ids in ReloadResult(instances: ids) })
    }

    func schedule(_ call: Reply<[ScheduleItem]>) {
        call.succeed(state.scheduler.pendingReloads().map(ScheduleItem.init))
    }

    func budget(_ params: InstanceParams, _ call: Reply<BudgetResult>) {
        guard state.instances.contains(params.id) else { return call.fail(.unknownInstance(params.id)) }
        let scheduler = state.scheduler
        let budget = scheduler.budget
        let history = scheduler.budgetHistory(params.id)
        let now = self.now
        let limit = scheduler.budgetLimit(params.id, now: now)
        let allowed = budget.nextAllowed(history, limit: limit).flatMap { $0 > now ? $0 : nil }
        let record = state.instances[params.id]
        call.succeed(BudgetResult(
            instance: params.id, enabled: budget.enabled, used: budget.used(history, now: now), limit: limit,
            spacing: budget.spacing, lastReload: history.last, nextAllowed: budget.enabled ? allowed : nil,
            pending: scheduler.pendingReload(for: params.id).map(ScheduleItem.init),
            lastShown: record?.lastVisible, shown: record?.visible, fullLimit: limit < budget.limit ? budget.limit : nil))
    }
}
