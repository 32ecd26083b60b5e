import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// A `ReloadScheduler` with the records it reads its instances' timings from, as the state
/// holds them, answering the scheduler's questions the way the tests ask them: one call per
/// step, by id. An instance added here gets a record of its own (kind as given, no timeline).
/// Events come back without handles, once each handle is checked to be its instance's record's,
/// so that they compare equal to the events a test expects.
struct ScheduleFixture {
    var scheduler: ReloadScheduler
    var records = InstanceBook()

    init(budget: ReloadBudget, coalescingWindow: TimeInterval) {
        scheduler = ReloadScheduler(budget: budget, coalescingWindow: coalescingWindow)
    }

    var budget: ReloadBudget { scheduler.budget }
    var sequenceLimit: UInt32 {
        get { scheduler.sequenceLimit }
        set { scheduler.sequenceLimit = newValue }
    }
    var coalescingWindow: TimeInterval {
        get { scheduler.coalescingWindow }
        set { scheduler.coalescingWindow = newValue }
    }

    /// Adds an instance, or starts it afresh keeping its budget history (a restart's records).
    mutating func add(_ id: InstanceID, kind: String, providerKey: String) {
        var record = InstanceRecord(
            instance: WidgetInstance(id: id, kind: kind, family: .systemSmall, configuration: [:], created: t0))
        if let old = records[id] { record.timing = ReloadTiming(history: old.timing.history) }
        let handle = records.put(record)
        scheduler.add(handle, kind: kind, providerKey: providerKey, in: records)
    }

    mutating func remove(_ id: InstanceID) {
        guard let handle = records.handle(of: id) else { return }
        scheduler.remove(handle)
        records.remove(id)
    }

    mutating func updateProvider(_ id: InstanceID, providerKey: String) {
        scheduler.updateProvider(id, providerKey: providerKey, in: records)
    }

    func contains(_ id: InstanceID) -> Bool { scheduler.contains(id, in: records) }
    func instances(ofKind kind: String) -> [InstanceID] { scheduler.instances(ofKind: kind, in: records) }

    mutating func updateBudget(_ budget: ReloadBudget) { scheduler.updateBudget(budget, in: records) }

    /// What the state's `updateShown` does: the record says since when it is hidden, and its
    /// reload moves when that changed.
    mutating func setHiddenSince(_ id: InstanceID, _ hiddenSince: Date?) {
        guard let record = records[id], record.hiddenSince != hiddenSince else { return }
        records.update(id) { record in
            record.visible = false
            record.lastVisible = hiddenSince
        }
        scheduler.reschedule(id, in: records)
    }

    func budgetLimit(_ id: InstanceID, now: Date) -> Int {
        budget.limit(shown: records[id]?.hiddenSince, now: now)
    }

    mutating func restoreHistory(_ id: InstanceID, dates: [Date]) {
        guard let handle = records.handle(of: id) else { return }
        records.changeTiming(of: handle) { timing, _ in timing.history = BudgetHistory(dates) }
        scheduler.reschedule(id, in: records)
    }

    func budgetHistory(_ id: InstanceID) -> BudgetHistory { records[id]?.timing.history ?? BudgetHistory() }
    func budgetUsed(_ id: InstanceID, now: Date) -> Int { budget.used(budgetHistory(id), now: now) }
    func lastBudgetedReload(_ id: InstanceID) -> Date? { budgetHistory(id).last }

    mutating func setPolicyDue(_ id: InstanceID, _ date: Date?) { scheduler.setPolicyDue(id, date, in: &records) }

    mutating func request(_ id: InstanceID, reason: ReloadReason, at wanted: Date) {
        scheduler.request(id, reason: reason, at: wanted, in: &records)
    }

    func mergedRequest(_ id: InstanceID, reason: ReloadReason, at wanted: Date) -> (reason: ReloadReason, wanted: Date) {
        scheduler.mergedRequest(id, reason: reason, at: wanted, in: records)
    }

    func pendingRequest(_ id: InstanceID) -> (reason: ReloadReason, wanted: Date)? { records[id]?.timing.request }

    mutating func setNextEntryChange(_ id: InstanceID, _ date: Date?) { scheduler.setNextEntryChange(id, date, in: records) }

    mutating func completed(_ id: InstanceID, policyDue: Date?) { scheduler.completed(id, policyDue: policyDue, in: &records) }

    mutating func failed(_ id: InstanceID, policyDue: Date?, retryAt: Date) {
        scheduler.failed(id, policyDue: policyDue, retryAt: retryAt, in: &records)
    }

    mutating func clockSteppedBack(from old: Date, to now: Date) { scheduler.clockSteppedBack(from: old, to: now, in: &records) }

    func nextDeadline() -> Date? { scheduler.nextDeadline() }
    mutating func popDue(now: Date) -> [SchedulerEvent] {
        scheduler.popDue(now: now, in: &records).map { event in
            switch event {
            case .entryChange(let id, let date, let handle):
                #expect(records.handle(of: id) == handle, "entry change of \(id)")
                return .entryChange(id, date, .none)
            case .reload(var batch):
                for index in batch.members.indices {
                    #expect(records.handle(of: batch.members[index].instance) == batch.members[index].handle, "member \(batch.members[index].instance)")
                    batch.members[index].handle = .none
                }
                return .reload(batch)
            }
        }
    }
    func pendingReloads() -> [ScheduledReload] { scheduler.pendingReloads(in: records) }
    var pendingReloadCount: Int { scheduler.pendingReloadCount(in: records) }
    func pendingReload(for id: InstanceID) -> ScheduledReload? { scheduler.pendingReload(for: id, in: records) }
    func isInFlight(_ id: InstanceID) -> Bool { records[id]?.timing.inFlight ?? false }
    var instanceCount: Int { scheduler.instanceCount }
    var heldEntries: Int { scheduler.heldEntries }
}
