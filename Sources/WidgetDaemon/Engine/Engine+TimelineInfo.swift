import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
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
        let full = state.settings.dailyReloadLimit
        var result = BudgetResult(
            instance: params.id, enabled: budget.enabled, used: budget.used(history, now: now), limit: limit,
            spacing: budget.spacing, lastReload: history.last, nextAllowed: budget.enabled ? allowed : nil,
            pending: scheduler.pendingReload(for: params.id).map(ScheduleItem.init),
            lastShown: record?.lastVisible, shown: record?.visible, fullLimit: limit < full ? full : nil)
        // Why, in the words of docs/clues.md: the session's lowering and holds.
        let lowered = (budget.session.fullLimit != nil ? ["battery"] : []) + (limit < budget.limit ? ["hidden"] : [])
        result.loweredBy = lowered.isEmpty ? nil : lowered
        result.held = budget.hold(.policy, at: now, shown: record?.hiddenSince, instance: params.id)
        call.succeed(result)
    }
}
