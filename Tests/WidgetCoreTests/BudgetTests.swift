import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// The reload budget (docs/overview.md): rolling 24-hour limit, minimum spacing, exemptions,
/// deferral instead of dropping.
@Suite("Reload budget")
struct BudgetTests {
    static let day: TimeInterval = 86_400

    /// One instance whose timelines always ask for a reload 60 s after they arrive, driven
    /// from t0 by jumping to each deadline. Returns the launch dates of budgeted reloads.
    func simulate(until end: Date, limit: Int = 70, spacing: TimeInterval = 300, enabled: Bool = true) throws -> [Date] {
        var scheduler = makeScheduler(window: 60, limit: limit, spacing: spacing, budget: enabled)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0)
        var launches: [Date] = []
        var steps = 0
        while let now = scheduler.nextDeadline(), now <= end {
            steps += 1
            try #require(steps <= 10_000, "the simulation does not make progress")
            for event in scheduler.popDue(now: now) {
                let batch = try #require(event.batch)
                #expect(batch.ids == ["w"])
                #expect(batch.members.first?.reason == .policy)
                launches.append(batch.date)
                scheduler.completed("w", policyDue: now + 60)
            }
        }
        return launches
    }

    @Test func aDayOfMinutePoliciesIsHeldToSpacingAndTheDailyLimit() throws {
        let launches = try simulate(until: t0 + 2 * Self.day)
        // Spacing first: t0, t0 + 300, ... 70 of them; the 71st waits until the first leaves
        // the window at t0 + 24 h.
        let firstDay = launches.filter { $0 < t0 + Self.day }
        #expect(firstDay.count == 70)
        #expect(firstDay.first == t0)
        #expect(firstDay.last == t0 + 69 * 300)
        #expect(launches.first { $0 >= t0 + Self.day } == t0 + Self.day)

        for (previous, next) in zip(launches, launches.dropFirst()) {
            #expect(next.timeIntervalSince(previous) >= 300)
        }
        // Never more than 70 in any rolling 24 hours: (d - 24 h, d] around every launch.
        var start = 0
        var most = 0
        for (index, date) in launches.enumerated() {
            while launches[start] <= date - Self.day { start += 1 }
            most = max(most, index - start + 1)
        }
        #expect(most == 70)
        // Deferred, not dropped: the day after runs the same pattern shifted by 24 h, and at
        // t0 + 48 h the window (t0 + 24 h, t0 + 48 h] holds 69, so one more runs.
        let expected = (0..<70).map { t0 + TimeInterval($0 * 300) }
        #expect(launches == expected + expected.map { $0 + Self.day } + [t0 + 2 * Self.day])
    }

    @Test func withoutBudgetEveryReloadRunsAtItsWantedTime() throws {
        let launches = try simulate(until: t0 + 3_600, enabled: false)
        #expect(launches.count == 61)
        #expect(launches == (0...60).map { t0 + TimeInterval($0 * 60) })
    }

    @Test func spacingAloneDefersToFiveMinutesAfterTheLastReload() throws {
        let launches = try simulate(until: t0 + 1_800, limit: 1_000)
        #expect(launches == (0...6).map { t0 + TimeInterval($0 * 300) })
    }

    @Test(arguments: [ReloadReason.initial, .configuration, .userInitiated])
    func exemptReasonsRunAtOnceAndConsumeNothing(reason: ReloadReason) throws {
        var scheduler = makeScheduler(window: 0, limit: 3, spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        // Budget spent: three reloads in the last hour.
        scheduler.restoreHistory("w", dates: [t0 - 3_000, t0 - 2_000, t0 - 60])
        #expect(scheduler.budgetUsed("w", now: t0) == 3)
        scheduler.request("w", reason: reason, at: t0)
        let pending = try #require(scheduler.pendingReload(for: "w"))
        #expect(pending.due == t0)
        #expect(!pending.deferredByBudget)
        let batch = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(batch.members == [member("w", reason, t0)])
        #expect(scheduler.budgetUsed("w", now: t0) == 3)
        #expect(scheduler.lastBudgetedReload("w") == t0 - 60)
    }

    @Test(arguments: [ReloadReason.requested, .policy, .retry])
    func budgetedReasonsWaitForTheBudget(reason: ReloadReason) throws {
        var scheduler = makeScheduler(window: 0, limit: 3, spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.restoreHistory("w", dates: [t0 - 3_000, t0 - 2_000, t0 - 60])
        if reason == .policy {
            scheduler.setPolicyDue("w", t0)
        } else {
            scheduler.request("w", reason: reason, at: t0)
        }
        // The oldest of the three leaves the window at t0 - 3000 + 24 h.
        let allowed = t0 - 3_000 + Self.day
        let pending = try #require(scheduler.pendingReload(for: "w"))
        #expect(pending.reason == reason)
        #expect(pending.wanted == t0)
        #expect(pending.due == allowed)
        #expect(pending.deferredByBudget)
        #expect(scheduler.pendingReloads() == [pending])
        #expect(scheduler.nextDeadline() == allowed)
        #expect(scheduler.popDue(now: allowed - 1).isEmpty)
        let batch = try #require(scheduler.popDue(now: allowed).first?.batch)
        #expect(batch.members == [member("w", reason, t0)])
        #expect(scheduler.lastBudgetedReload("w") == allowed)
        #expect(scheduler.budgetUsed("w", now: allowed) == 3)
    }

    @Test func disabledBudgetRunsEverythingAtItsWantedTime() throws {
        var scheduler = makeScheduler(window: 0, limit: 1, spacing: 3_600, budget: false)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.restoreHistory("w", dates: [t0 - 1])
        for (reason, offset) in [(ReloadReason.requested, 0.0), (.retry, 10), (.policy, 20)] {
            if reason == .policy {
                scheduler.setPolicyDue("w", t0 + offset)
            } else {
                scheduler.request("w", reason: reason, at: t0 + offset)
            }
            #expect(scheduler.nextDeadline() == t0 + offset)
            let batch = try #require(scheduler.popDue(now: t0 + offset).first?.batch)
            #expect(batch.members.first?.reason == reason)
            scheduler.completed("w", policyDue: nil)
        }
        #expect(scheduler.lastBudgetedReload("w") == t0 - 1)
    }

    @Test func disablingTheBudgetReleasesDeferredReloads() {
        var scheduler = makeScheduler(window: 0, limit: 70, spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.restoreHistory("w", dates: [t0])
        scheduler.setPolicyDue("w", t0 + 10)
        #expect(scheduler.nextDeadline() == t0 + 300)
        scheduler.updateBudget(ReloadBudget(limit: 70, spacing: 300, enabled: false))
        #expect(scheduler.nextDeadline() == t0 + 10)
        #expect(scheduler.pendingReload(for: "w")?.deferredByBudget == false)
        scheduler.updateBudget(ReloadBudget(limit: 70, spacing: 300, enabled: true))
        #expect(scheduler.nextDeadline() == t0 + 300)
    }

    @Test func failedReloadRetriesUnderTheBudget() throws {
        var scheduler = makeScheduler(window: 0, limit: 70, spacing: 300)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0)
        #expect(scheduler.popDue(now: t0).count == 1)
        // The provider failed; the old timeline's policy wanted t0 + 3600, retry asked at t0 + 30.
        scheduler.failed("w", policyDue: t0 + 3_600, retryAt: t0 + 30)
        let pending = try #require(scheduler.pendingReload(for: "w"))
        #expect(pending.reason == .retry)
        #expect(pending.wanted == t0 + 30)
        #expect(pending.due == t0 + 300)
        #expect(pending.deferredByBudget)
        #expect(scheduler.nextDeadline() == t0 + 300)
        #expect(scheduler.popDue(now: t0 + 299).isEmpty)
        let batch = try #require(scheduler.popDue(now: t0 + 300).first?.batch)
        #expect(batch.members == [member("w", .retry, t0 + 30)])
        #expect(scheduler.budgetUsed("w", now: t0 + 300) == 2)
    }

    @Test func failedReloadKeepsTheOldPolicyDate() throws {
        var scheduler = makeScheduler(window: 0, budget: false)
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("w", t0)
        _ = scheduler.popDue(now: t0)
        // Policy earlier than the retry: the policy reload comes first.
        scheduler.failed("w", policyDue: t0 + 20, retryAt: t0 + 90)
        let pending = try #require(scheduler.pendingReload(for: "w"))
        #expect(pending.reason == .policy)
        #expect(pending.due == t0 + 20)
    }

    @Test func budgetWindowArithmetic() {
        let budget = ReloadBudget(limit: 2, spacing: 60, enabled: true)
        var history = BudgetHistory()
        #expect(budget.nextAllowed(history) == nil)
        #expect(budget.effectiveDate(history, wanted: t0, reason: .policy) == t0)
        history.record(t0)
        #expect(budget.nextAllowed(history) == t0 + 60)
        history.record(t0 + 100)
        // Two in the window: the next waits for t0 to leave it, i.e. until t0 + 24 h.
        #expect(budget.nextAllowed(history) == t0 + Self.day)
        #expect(budget.used(history, now: t0 + 100) == 2)
        #expect(budget.used(history, now: t0 + Self.day) == 1)
        #expect(budget.used(history, now: t0 + 100 + Self.day) == 0)
        #expect(budget.effectiveDate(history, wanted: t0 + 200, reason: .requested) == t0 + Self.day)
        #expect(budget.effectiveDate(history, wanted: t0 + 200, reason: .userInitiated) == t0 + 200)
        #expect(budget.effectiveDate(history, wanted: t0 + 2 * Self.day, reason: .policy) == t0 + 2 * Self.day)
        // Recording trims what left the window.
        history.record(t0 + Self.day + 50)
        #expect(history.dates == [t0 + 100, t0 + Self.day + 50])
    }

    @Test func exemptionsFollowTheSemantics() {
        #expect(ReloadReason.allCases.filter(\.isExempt) == [.initial, .configuration, .userInitiated, .action])
        let budget = ReloadBudget(limit: 70, spacing: 300, enabled: true)
        // `hidden`, `locked` and `power-saver` only name a held budgeted reload in listings.
        #expect(ReloadReason.allCases.filter { budget.applies(to: $0) } == [.requested, .policy, .retry, .hidden, .locked, .powerSaver])
        let off = ReloadBudget(limit: 70, spacing: 300, enabled: false)
        #expect(ReloadReason.allCases.allSatisfy { !off.applies(to: $0) })
    }

    @Test func removingAnInstanceForgetsItsHistory() {
        var scheduler = makeScheduler()
        scheduler.add("w", kind: "k", providerKey: "p")
        scheduler.restoreHistory("w", dates: [t0])
        scheduler.remove("w")
        #expect(scheduler.budgetUsed("w", now: t0) == 0)
    }
}
