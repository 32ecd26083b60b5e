import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// The rules for a wall clock that jumps forward or goes back (docs/overview.md): dates later
/// than the new now count as now, a reload due before the step and not yet run runs once, and
/// nothing that ran runs again. On a manual clock: `now` is passed in.
@Suite("Clock steps")
struct ClockStepTests {
    let hour: TimeInterval = 3600

    /// Pops everything due at `now` and returns the reloaded instances, completing each launch
    /// with a policy `after` `next` (nil: never).
    func reloads(_ scheduler: inout ScheduleFixture, at now: Date, next: Date? = nil) -> [InstanceID] {
        var ids: [InstanceID] = []
        for event in scheduler.popDue(now: now) {
            guard let batch = event.batch else { continue }
            ids += batch.ids
            for id in batch.ids { scheduler.completed(id, policyDue: next) }
        }
        return ids
    }

    @Test func budgetDatesAfterTheNewNowCountAsNow() {
        var history = BudgetHistory([t0 - 600, t0 + 1800, t0 + 3000])
        history.clamp(notAfter: t0)
        #expect(history.dates == [t0 - 600, t0, t0])
        let budget = ReloadBudget(limit: 70, spacing: 300, enabled: true)
        // Still counted (a step back refunds nothing); spacing runs from the new now.
        #expect(budget.used(history, now: t0) == 3)
        #expect(budget.nextAllowed(history) == t0 + 300)
    }

    @Test func aStepBackDoesNotHoldTheNextReloadForTheSizeOfTheStep() {
        var scheduler = makeScheduler(spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0)
        #expect(reloads(&scheduler, at: t0, next: t0 + 600) == ["w"])
        // The clock goes back an hour. The policy date (a wall instant) stays at t0 + 600.
        scheduler.clockSteppedBack(from: t0 + 1, to: t0 - hour)
        #expect(scheduler.budgetHistory("w").dates == [t0 - hour])
        #expect(scheduler.nextDeadline() == t0 + 600)
        // Without the rule the reload recorded at t0 would hold an app request until t0 + 300.
        scheduler.request("w", reason: .requested, at: t0 - hour + 60)
        #expect(scheduler.nextDeadline() == t0 - hour + 300)
        #expect(reloads(&scheduler, at: t0 - hour + 300) == ["w"])
    }

    @Test func aReloadDueBeforeTheStepAndDeferredRunsOnceAfterIt() {
        var scheduler = makeScheduler(spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0)
        #expect(reloads(&scheduler, at: t0, next: t0 + 60) == ["w"])
        // Wanted at t0 + 60, deferred by the spacing to t0 + 300; the clock goes back an hour at t0 + 120.
        #expect(scheduler.nextDeadline() == t0 + 300)
        scheduler.clockSteppedBack(from: t0 + 120, to: t0 + 120 - hour)
        let now = t0 + 120 - hour
        let pending = scheduler.pendingReload(for: "w")
        #expect(pending?.wanted == now)
        #expect(pending?.due == now + 300)
        #expect(reloads(&scheduler, at: now + 300, next: nil) == ["w"])
        // Once: nothing else is due, through the hour and beyond the old dates.
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.popDue(now: t0 + 2 * hour).isEmpty)
    }

    @Test func aReloadThatRanIsNotRunAgainAfterAStepBack() {
        var scheduler = makeScheduler(spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0 + hour)
        // The clock steps forward an hour: the reload runs once, at the new now.
        #expect(reloads(&scheduler, at: t0 + hour + 5, next: t0 + 3 * hour) == ["w"])
        #expect(scheduler.popDue(now: t0 + hour + 5).isEmpty)
        // And back: the policy date it ran for is not due again; the new one stays where it is.
        scheduler.clockSteppedBack(from: t0 + hour + 10, to: t0 + 10)
        #expect(scheduler.nextDeadline() == t0 + 3 * hour)
        #expect(scheduler.popDue(now: t0 + hour + 10).isEmpty)
        #expect(reloads(&scheduler, at: t0 + 3 * hour) == ["w"])
    }

    @Test func futureReloadsAfterTheOldNowKeepTheirDates() {
        var scheduler = makeScheduler(spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0 + 2 * hour)
        scheduler.request("v", reason: .requested, at: t0)  // unknown: ignored
        scheduler.clockSteppedBack(from: t0, to: t0 - hour)
        #expect(scheduler.nextDeadline() == t0 + 2 * hour)
    }

    @Test func rotationStateAfterTheNewNowCountsAsNow() {
        let settings = RotationSettings()
        var stack = StackState(name: "s", instances: ["a", "b"])
        stack.topSince = t0
        stack.holdUntil = t0 + hour
        stack.rotations = [t0 - 600, t0 - 60]
        // One hour back: without the rule the dwell and the hold would last two hours.
        let now = t0 - hour
        let changed = stack.clampDates(notAfter: now, hold: settings.userHold)
        #expect(changed)
        #expect(stack.topSince == now)
        #expect(stack.holdUntil == now + settings.userHold)
        #expect(stack.rotations == [now, now])
        let again = stack.clampDates(notAfter: now, hold: settings.userHold)
        #expect(!again)
    }

    @Test func rotationResumesAfterTheDwellFromTheNewNow() {
        var settings = RotationSettings()
        settings.hourlyCap = 2
        var stack = StackState(name: "s", instances: ["a", "b"])
        stack.topSince = t0
        stack.rotations = [t0 - 60, t0]
        let candidates = [
            RankedCandidate(
                instance: "a", score: 0.1, relevanceSince: nil, relevanceUntil: nil, relevance: 0.1, affinity: 0, donations: [],
                eligible: true, rank: 0.1),
            RankedCandidate(
                instance: "b", score: 0.9, relevanceSince: nil, relevanceUntil: nil, relevance: 0.9, affinity: 0, donations: [],
                eligible: true, rank: 0.9),
        ]
        let now = t0 - hour
        let held = StackRotation.evaluate(&stack, candidates: candidates, at: now, settings: settings)
        #expect(held.decision?.reason == .heldByDwell)
        #expect(held.recheck == now + settings.minimumDwell)
        // The two rotations count as made at the new now, so the cap holds until an hour after it,
        // not an hour after dates that have not come yet.
        let capped = StackRotation.evaluate(&stack, candidates: candidates, at: now + settings.minimumDwell, settings: settings)
        #expect(capped.decision?.reason == .heldByCap)
        #expect(capped.recheck == now + hour)
        let rotated = StackRotation.evaluate(&stack, candidates: candidates, at: now + hour, settings: settings)
        #expect(rotated.decision?.to == "b")
    }
}
