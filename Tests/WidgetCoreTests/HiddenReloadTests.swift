import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Reloads follow what is seen: a budgeted reload of an instance no host has shown for
/// `hiddenAfter` is held until a host shows it, and the daily limit of one no host has shown in
/// 24 hours is lowered. An instance no host has ever shown is never held.
@Suite("Hidden reloads")
struct HiddenReloadTests {
    static let hours: TimeInterval = 3600

    func scheduler(hiddenAfter: TimeInterval = 6 * hours, hiddenLimit: Int = 12) -> ScheduleFixture {
        var scheduler = ScheduleFixture(
            budget: ReloadBudget(limit: 70, spacing: 300, enabled: true, hiddenAfter: hiddenAfter, hiddenLimit: hiddenLimit),
            coalescingWindow: 60)
        scheduler.add("w", kind: "k", providerKey: "p")
        return scheduler
    }

    @Test func aPolicyReloadPastTheHiddenTimeIsHeldUntilShown() {
        var scheduler = scheduler()
        scheduler.setHiddenSince("w", t0)
        scheduler.setPolicyDue("w", t0 + 5 * Self.hours)
        #expect(scheduler.nextDeadline() == t0 + 5 * Self.hours)
        // A reload wanted once six hours have passed without a host showing it waits.
        scheduler.setPolicyDue("w", t0 + 7 * Self.hours)
        #expect(scheduler.nextDeadline() == nil)
        let held = scheduler.pendingReload(for: "w")
        #expect(held?.reason == .hidden)
        #expect(held?.heldReason == .policy)
        #expect(scheduler.popDue(now: t0 + 30 * Self.hours).isEmpty)
        // Refresh on reveal: a host shows it, and the reload is due at once.
        scheduler.setHiddenSince("w", nil)
        #expect(scheduler.nextDeadline() == t0 + 7 * Self.hours)
        let events = scheduler.popDue(now: t0 + 30 * Self.hours)
        #expect(events.compactMap(\.batch).flatMap(\.members).map(\.reason) == [.policy])
    }

    @Test func exemptReloadsAndInstancesNeverShownAreNotHeld() {
        var scheduler = scheduler()
        scheduler.setPolicyDue("w", t0 + 30 * Self.hours)
        #expect(scheduler.nextDeadline() == t0 + 30 * Self.hours)  // never shown: as before
        scheduler.setHiddenSince("w", t0)
        #expect(scheduler.nextDeadline() == nil)
        scheduler.request("w", reason: .userInitiated, at: t0 + 8 * Self.hours)
        #expect(scheduler.nextDeadline() == t0 + 8 * Self.hours)
        #expect(scheduler.pendingReload(for: "w")?.reason == .userInitiated)
    }

    @Test func anInstanceShownNowIsNeverHeld() {
        var scheduler = scheduler()
        scheduler.setHiddenSince("w", nil)
        scheduler.setPolicyDue("w", t0 + 48 * Self.hours)
        #expect(scheduler.nextDeadline() == t0 + 48 * Self.hours)
        // The host stops showing it at +47 h: the reload an hour later still runs.
        scheduler.setHiddenSince("w", t0 + 47 * Self.hours)
        #expect(scheduler.nextDeadline() == t0 + 48 * Self.hours)
    }

    @Test func holdsAreOffWithAZeroHiddenTimeOrWithoutTheBudget() {
        var off = scheduler(hiddenAfter: 0)
        off.setHiddenSince("w", t0)
        off.setPolicyDue("w", t0 + 7 * Self.hours)
        #expect(off.nextDeadline() == t0 + 7 * Self.hours)
        var unbudgeted = scheduler()
        unbudgeted.updateBudget(ReloadBudget(limit: 70, spacing: 300, enabled: false, hiddenAfter: 6 * Self.hours))
        unbudgeted.setHiddenSince("w", t0)
        unbudgeted.setPolicyDue("w", t0 + 7 * Self.hours)
        #expect(unbudgeted.nextDeadline() == t0 + 7 * Self.hours)
    }

    @Test func theDailyLimitIsLoweredOnceHiddenForADay() {
        // Holds off, so the lowered limit is what stands between a hidden widget and its reloads.
        var scheduler = scheduler(hiddenAfter: 0, hiddenLimit: 3)
        let start = t0 + 25 * Self.hours
        scheduler.restoreHistory("w", dates: [start - 3000, start - 2000, start - 1000])
        scheduler.setHiddenSince("w", t0)
        #expect(scheduler.budgetLimit("w", now: start) == 3)
        #expect(scheduler.budgetLimit("w", now: t0 + 23 * Self.hours) == 70)
        scheduler.setPolicyDue("w", start)
        // Three budgeted reloads in the window: the next waits until the oldest leaves it.
        #expect(scheduler.nextDeadline() == start - 3000 + 86_400)
        scheduler.setHiddenSince("w", nil)
        #expect(scheduler.budgetLimit("w", now: start) == 70)
        #expect(scheduler.nextDeadline() == start)
    }
}
