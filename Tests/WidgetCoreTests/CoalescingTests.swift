import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Merging (docs/overview.md): one launch per provider for everything due
/// within W, and duplicate requests collapsing.
@Suite("Coalescing and duplicate requests")
struct CoalescingTests {
    /// A, B, C on one provider due at t0, t0 + 30 and t0 + 61.
    func threeOnOneProvider(window: TimeInterval, budget enabled: Bool = true) -> ScheduleFixture {
        var scheduler = makeScheduler(window: window, budget: enabled)
        for (id, offset) in [("A", 0.0), ("B", 30), ("C", 61)] {
            scheduler.add(id, kind: "k", providerKey: "prov")
            scheduler.setPolicyDue(id, t0 + offset)
        }
        return scheduler
    }

    @Test func mergesWithinTheWindowAndNotBeyond() throws {
        var scheduler = threeOnOneProvider(window: 60)
        #expect(scheduler.nextDeadline() == t0)
        let events = scheduler.popDue(now: t0)
        #expect(events.count == 1)
        let batch = try #require(events.first?.batch)
        #expect(batch.providerKey == "prov")
        #expect(batch.date == t0)
        #expect(
            batch.members == [
                member("A", .policy, t0),
                member("B", .policy, t0 + 30),
            ])
        // B's own wake-up at t0 + 30 is now stale: C is next, at its own date.
        #expect(scheduler.nextDeadline() == t0 + 61)
        #expect(scheduler.popDue(now: t0 + 60).isEmpty)
        #expect(scheduler.pendingReloads().map(\.instance) == ["C"])
        let later = try #require(scheduler.popDue(now: t0 + 61).first?.batch)
        #expect(later.members == [member("C", .policy, t0 + 61)])
        #expect(later.date == t0 + 61)
    }

    @Test func mergedBudgetedMembersAreChargedAtTheLaunch() {
        var scheduler = threeOnOneProvider(window: 60)
        _ = scheduler.popDue(now: t0)
        #expect(scheduler.budgetUsed("A", now: t0) == 1)
        #expect(scheduler.budgetUsed("B", now: t0) == 1)
        #expect(scheduler.lastBudgetedReload("B") == t0)
        #expect(scheduler.budgetUsed("C", now: t0) == 0)
    }

    @Test func theWindowEdgeIsInclusive() throws {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.add("B", kind: "k", providerKey: "prov")
        scheduler.setPolicyDue("A", t0)
        scheduler.setPolicyDue("B", t0 + 60)
        let batch = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(batch.ids == ["A", "B"])
    }

    @Test func differentProvidersAreNotMerged() throws {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("A", kind: "k", providerKey: "one")
        scheduler.add("B", kind: "k", providerKey: "two")
        scheduler.setPolicyDue("A", t0)
        scheduler.setPolicyDue("B", t0 + 30)
        let events = scheduler.popDue(now: t0)
        #expect(events.compactMap(\.batch).map(\.ids) == [["A"]])
        #expect(scheduler.nextDeadline() == t0 + 30)
        let batch = try #require(scheduler.popDue(now: t0 + 30).first?.batch)
        #expect(batch.providerKey == "two")
        #expect(batch.ids == ["B"])
    }

    @Test func sameKindOnDifferentProvidersIsNotMergedButDifferentKindsOnOneProviderAre() throws {
        // Merging follows the provider (one executable serving several kinds), not the kind.
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("A", kind: "weather", providerKey: "bundle")
        scheduler.add("B", kind: "clock", providerKey: "bundle")
        scheduler.setPolicyDue("A", t0)
        scheduler.setPolicyDue("B", t0 + 59)
        #expect(try #require(scheduler.popDue(now: t0).first?.batch).ids == ["A", "B"])
    }

    @Test func zeroWindowMergesOnlyTheSameInstant() throws {
        var scheduler = threeOnOneProvider(window: 0)
        scheduler.add("A2", kind: "k", providerKey: "prov")
        scheduler.setPolicyDue("A2", t0)
        let first = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(first.ids == ["A", "A2"])
        #expect(scheduler.nextDeadline() == t0 + 30)
        let second = try #require(scheduler.popDue(now: t0 + 30).first?.batch)
        #expect(second.ids == ["B"])
        #expect(scheduler.nextDeadline() == t0 + 61)
    }

    @Test func aMemberTheBudgetHoldsBackIsNotMerged() throws {
        var scheduler = makeScheduler(window: 60, limit: 70, spacing: 300)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.add("B", kind: "k", providerKey: "prov")
        // B reloaded 100 s ago: spacing allows its next budgeted reload at t0 + 200.
        scheduler.restoreHistory("B", dates: [t0 - 100])
        scheduler.setPolicyDue("A", t0)
        scheduler.setPolicyDue("B", t0 + 30)
        let first = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(first.ids == ["A"])
        let pendingB = try #require(scheduler.pendingReload(for: "B"))
        #expect(pendingB.wanted == t0 + 30)
        #expect(pendingB.due == t0 + 200)
        #expect(pendingB.deferredByBudget)
        #expect(scheduler.nextDeadline() == t0 + 200)
        let second = try #require(scheduler.popDue(now: t0 + 200).first?.batch)
        #expect(second.members == [member("B", .policy, t0 + 30)])
    }

    @Test func anExemptMemberIsMergedEvenWhenItsBudgetIsSpent() throws {
        var scheduler = makeScheduler(window: 60, limit: 70, spacing: 300)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.add("B", kind: "k", providerKey: "prov")
        scheduler.restoreHistory("B", dates: [t0 - 100])
        scheduler.setPolicyDue("A", t0)
        scheduler.request("B", reason: .configuration, at: t0 + 30)
        let batch = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(batch.members.map(\.instance) == ["A", "B"])
        #expect(batch.members.map(\.reason) == [.policy, .configuration])
        // The exempt reload neither consumed budget nor moved B's history.
        #expect(scheduler.budgetUsed("B", now: t0) == 1)
        #expect(scheduler.lastBudgetedReload("B") == t0 - 100)
    }

    @Test func anInFlightInstanceIsNotMerged() throws {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.add("B", kind: "k", providerKey: "prov")
        scheduler.setPolicyDue("B", t0 - 10)
        #expect(scheduler.popDue(now: t0 - 10).count == 1)
        scheduler.request("B", reason: .requested, at: t0)
        scheduler.setPolicyDue("A", t0)
        let batch = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(batch.ids == ["A"])
    }

    @Test func duplicateRequestsCollapse() throws {
        var scheduler = makeScheduler(window: 0, budget: true)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.request("A", reason: .requested, at: t0)
        scheduler.request("A", reason: .requested, at: t0)
        scheduler.request("A", reason: .requested, at: t0 + 5)
        let pending = scheduler.pendingReloads()
        #expect(pending.count == 1)
        #expect(pending.first?.instance == "A")
        #expect(pending.first?.reason == .requested)
        #expect(pending.first?.wanted == t0)
        let events = scheduler.popDue(now: t0 + 5)
        #expect(events.count == 1)
        #expect(try #require(events.first?.batch).members == [member("A", .requested, t0)])
        scheduler.completed("A", policyDue: nil)
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.budgetUsed("A", now: t0 + 5) == 1)
    }

    @Test func anExemptRequestIsPreferredAtEqualTimes() {
        var scheduler = makeScheduler()
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.request("A", reason: .requested, at: t0)
        scheduler.request("A", reason: .userInitiated, at: t0)
        #expect(scheduler.pendingReload(for: "A")?.reason == .userInitiated)
        // ...and a budgeted one arriving later does not displace it.
        scheduler.request("A", reason: .requested, at: t0)
        #expect(scheduler.pendingReload(for: "A")?.reason == .userInitiated)
        #expect(scheduler.pendingReloads().count == 1)
    }

    @Test func theRequestThatCanRunFirstIsKept() {
        var scheduler = makeScheduler()
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.request("A", reason: .initial, at: t0 + 20)
        scheduler.request("A", reason: .requested, at: t0 + 10)
        #expect(scheduler.pendingReload(for: "A")?.reason == .requested)
        #expect(scheduler.pendingReload(for: "A")?.wanted == t0 + 10)
    }

    @Test func anExemptRequestBeatsAnEarlierBudgetDeferredOne() {
        var scheduler = makeScheduler(limit: 70, spacing: 300)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.restoreHistory("A", dates: [t0])
        // Wanted at t0 + 10 but deferred to t0 + 300; the exempt one wanted at t0 + 20 runs first.
        scheduler.request("A", reason: .requested, at: t0 + 10)
        #expect(scheduler.pendingReload(for: "A")?.due == t0 + 300)
        scheduler.request("A", reason: .userInitiated, at: t0 + 20)
        let pending = scheduler.pendingReload(for: "A")
        #expect(pending?.reason == .userInitiated)
        #expect(pending?.due == t0 + 20)
        #expect(pending?.deferredByBudget == false)
    }

    @Test func mergedRequestPredictsWhatRequestKeeps() {
        var scheduler = makeScheduler(limit: 70, spacing: 300)
        scheduler.add("A", kind: "k", providerKey: "prov")
        scheduler.restoreHistory("A", dates: [t0])
        // Nothing pending yet: the new request is kept as given.
        let fresh = scheduler.mergedRequest("A", reason: .requested, at: t0 + 10)
        #expect(fresh.reason == .requested && fresh.wanted == t0 + 10)

        let cases: [(ReloadReason, TimeInterval)] = [
            (.requested, 10), (.requested, 5), (.retry, 400), (.userInitiated, 350), (.requested, 0),
            (.configuration, 350), (.initial, 100), (.requested, 50),
        ]
        for (reason, offset) in cases {
            let predicted = scheduler.mergedRequest("A", reason: reason, at: t0 + offset)
            scheduler.request("A", reason: reason, at: t0 + offset)
            let kept = scheduler.pendingReload(for: "A")
            #expect(kept?.reason == predicted.reason, "after \(reason) at +\(offset)")
            #expect(kept?.wanted == predicted.wanted, "after \(reason) at +\(offset)")
        }
        // The last exempt one wins: .initial at t0 + 100 runs before any budgeted one (t0 + 300).
        #expect(scheduler.pendingReload(for: "A")?.reason == .initial)
        #expect(scheduler.pendingReload(for: "A")?.wanted == t0 + 100)
    }

    @Test func requestForAnUnknownInstanceIsIgnored() {
        var scheduler = makeScheduler()
        scheduler.request("ghost", reason: .requested, at: t0)
        scheduler.setPolicyDue("ghost", t0)
        #expect(scheduler.pendingReloads().isEmpty)
        #expect(scheduler.nextDeadline() == nil)
    }
}
