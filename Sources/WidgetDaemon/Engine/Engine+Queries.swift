import Foundation
import WidgetCore
import WidgetProtocol

extension Engine {
    public func ping() -> PingResult {
        PingResult(daemon: ProtocolVersion.daemonVersion, protocol: ProtocolVersion.current)
    }

    public func status() async -> StatusResult {
        let pending = scheduler.pendingReloads()
        var result = StatusResult(
            daemon: ProtocolVersion.daemonVersion, protocol: ProtocolVersion.current, clock: clockInfo(),
            kinds: catalog.descriptors.count, instances: instances.count, timelines: timelines.count,
            pendingReloads: pending.count, providersRunning: await runner.running,
            nextWakeup: scheduler.nextDeadline(), budgetEnabled: settings.budgetEnabled,
            descriptorProblems: catalog.problems.count, stateDirectory: stateDirectory)
        result.subscribers = events.count
        result.storageError = storageFault?.message
        return result
    }

    public func widgets() -> WidgetsResult {
        var counts: [String: Int] = [:]
        for instance in instances.values { counts[instance.kind, default: 0] += 1 }
        let widgets = catalog.descriptors.values.sorted { $0.kind < $1.kind }.map {
            WidgetKindInfo(descriptor: $0, instances: counts[$0.kind] ?? 0)
        }
        return WidgetsResult(widgets: widgets, problems: catalog.problems)
    }

    public func list() -> [InstanceInfo] {
        instances.values.sorted { ($0.created, $0.id) < ($1.created, $1.id) }.map(info)
    }

    func info(_ instance: WidgetInstance) -> InstanceInfo {
        let stored = timelines[instance.id]
        var info = InstanceInfo(
            id: instance.id, kind: instance.kind, family: instance.family, configuration: instance.configuration,
            currentEntry: stored?.timeline.currentEntry(at: now), hasTimeline: stored != nil,
            nextReload: scheduler.pendingReload(for: instance.id)?.due)
        info.visible = visibleNow.contains(instance.id)
        info.lastVisible = lastVisible[instance.id]
        return info
    }

    public func timeline(_ params: InstanceParams) throws(RPCError) -> TimelineResult {
        let instance = try instance(params.id)
        let stored = timelines[instance.id]
        let now = self.now
        return TimelineResult(
            instance: instance.id, kind: instance.kind, family: instance.family,
            entries: stored?.timeline.entries ?? [], policy: stored?.timeline.policy,
            currentIndex: stored?.timeline.currentIndex(at: now), currentEntry: stored?.timeline.currentEntry(at: now),
            nextEntryChange: stored?.timeline.nextEntryDate(after: now),
            nextReload: scheduler.pendingReload(for: instance.id), receivedAt: stored?.receivedAt,
            lastError: lastErrors[instance.id])
    }

    public func schedule() -> [ScheduleItem] {
        scheduler.pendingReloads().map(ScheduleItem.init)
    }

    public func budget(_ params: InstanceParams) throws(RPCError) -> BudgetResult {
        let instance = try instance(params.id)
        let budget = scheduler.budget
        let history = scheduler.budgetHistory(instance.id)
        let now = self.now
        let allowed = budget.nextAllowed(history).flatMap { $0 > now ? $0 : nil }
        return BudgetResult(
            instance: instance.id, enabled: budget.enabled, used: budget.used(history, now: now), limit: budget.limit,
            spacing: budget.spacing, lastReload: history.last,
            nextAllowed: budget.enabled ? allowed : nil,
            pending: scheduler.pendingReload(for: instance.id).map(ScheduleItem.init))
    }

    public func clockInfo(processed: Int? = nil) -> ClockInfo {
        ClockInfo(mode: isVirtual ? "virtual" : "real", now: now, processed: processed)
    }
}
