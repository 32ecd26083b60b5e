import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// The one earliest-deadline structure (docs/overview.md): order of events,
/// replacement of due dates and removal.
@Suite("Scheduler order")
struct SchedulerOrderTests {
    @Test func manyInstancesComeOutEarliestFirstAndExactlyOnce() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        // Distinct providers: nothing merges. W = 0 and no budget: every reload at its policy date.
        var scheduler = makeScheduler(window: 0, budget: false)
        var due: [InstanceID: Date] = [:]
        for index in 0..<1_000 {
            let id = "i\(index)"
            scheduler.add(id, kind: "k\(index % 7)", providerKey: "p\(index)")
            // Whole seconds over one day, with collisions likely (1000 draws in 86400).
            let date = t0 + TimeInterval(rng.next(upperBound: UInt64(86_400)))
            scheduler.setPolicyDue(id, date)
            due[id] = date
        }
        #expect(scheduler.instanceCount == 1_000)
        #expect(scheduler.pendingReloads().count == 1_000)

        var seen: [InstanceID: Date] = [:]
        var last = Date.distantPast
        var wakeups = 0
        while let deadline = scheduler.nextDeadline() {
            wakeups += 1
            try #require(wakeups <= 1_000, "more wake-ups than instances")
            #expect(deadline >= last)
            let events = scheduler.popDue(now: deadline)
            try #require(!events.isEmpty, "a deadline with nothing due")
            for event in events {
                let batch = try #require(event.batch)
                #expect(batch.date == deadline)
                #expect(batch.members.count == 1)
                let member = try #require(batch.members.first)
                #expect(member.reason == .policy)
                #expect(member.wanted == due[member.instance])
                #expect(member.wanted == deadline)
                #expect(seen[member.instance] == nil, "\(member.instance) reloaded twice")
                seen[member.instance] = member.wanted
                #expect(scheduler.isInFlight(member.instance))
                // The provider answered with a `never` timeline.
                scheduler.completed(member.instance, policyDue: nil)
            }
            last = deadline
        }
        #expect(seen == due)
        #expect(scheduler.pendingReloads().isEmpty)
        #expect(wakeups == Set(due.values).count)
    }

    @Test func supersededWakeupsDoNotPileUp() throws {
        // One provider, so every reschedule also leaves a merge candidate behind.
        var scheduler = makeScheduler(window: 60, budget: false)
        for index in 0..<10 { scheduler.add("i\(index)", kind: "k", providerKey: "p") }
        // Far-future due dates replaced 100,000 times: nothing surfaces to be dropped lazily.
        for round in 0..<10_000 {
            for index in 0..<10 { scheduler.setPolicyDue("i\(index)", t0 + 86_400 + TimeInterval(round)) }
        }
        // Each instance holds one due node and one merge-candidate node, moved in place.
        #expect(scheduler.heldEntries == 2 * 10)
        // What is live is still all there: the last due dates, merged into one launch.
        let events = scheduler.popDue(now: t0 + 86_400 + 10_000)
        let members = events.flatMap { event -> [InstanceID] in
            if case .reload(let batch) = event { return batch.members.map(\.instance) }
            return []
        }
        #expect(members.sorted() == (0..<10).map { "i\($0)" }.sorted())
    }

    @Test func popDueReturnsEverythingDueInDateOrder() throws {
        var scheduler = makeScheduler(window: 0, budget: false)
        for (id, offset) in [("c", 30.0), ("a", 10), ("b", 20), ("late", 100)] {
            scheduler.add(id, kind: "k", providerKey: "p-\(id)")
            scheduler.setPolicyDue(id, t0 + offset)
        }
        // A late wake-up at t0 + 50 handles the three that are due, earliest first.
        let events = scheduler.popDue(now: t0 + 50)
        #expect(events.compactMap(\.batch).flatMap(\.ids) == ["a", "b", "c"])
        #expect(events.compactMap(\.batch).flatMap { $0.members.map(\.wanted) } == [t0 + 10, t0 + 20, t0 + 30])
        #expect(scheduler.nextDeadline() == t0 + 100)
        #expect(scheduler.popDue(now: t0 + 99).isEmpty)
    }

    @Test func nothingIsDueBeforeItsDate() {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 + 100)
        #expect(scheduler.popDue(now: t0 + 99).isEmpty)
        #expect(scheduler.nextDeadline() == t0 + 100)
        #expect(!scheduler.isInFlight("a"))
    }

    @Test func pastDueDateMeansDueNow() throws {
        var scheduler = makeScheduler(budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 - 3_600)
        #expect(scheduler.nextDeadline() == t0 - 3_600)
        let batch = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(batch.ids == ["a"])
        #expect(batch.date == t0)
        #expect(batch.members.first?.wanted == t0 - 3_600)
    }

    @Test func entryChangeComesBeforeAReloadAtTheSameDate() throws {
        var scheduler = makeScheduler(budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        // The reload is registered first; the entry change must still come first.
        scheduler.setPolicyDue("a", t0 + 60)
        scheduler.setNextEntryChange("a", t0 + 60)
        #expect(scheduler.nextDeadline() == t0 + 60)
        let events = scheduler.popDue(now: t0 + 60)
        #expect(events.count == 2)
        let change = try #require(events.first?.entryChange)
        #expect(change.0 == "a")
        #expect(change.1 == t0 + 60)
        #expect(events.last?.batch?.ids == ["a"])
    }

    @Test func entryChangesOfSeveralInstancesInDateOrder() {
        var scheduler = makeScheduler(budget: false)
        for id in ["x", "y", "z"] { scheduler.add(id, kind: "k", providerKey: "p") }
        scheduler.setNextEntryChange("z", t0 + 30)
        scheduler.setNextEntryChange("x", t0 + 10)
        scheduler.setNextEntryChange("y", t0 + 20)
        let events = scheduler.popDue(now: t0 + 30)
        #expect(events.compactMap { $0.entryChange?.0 } == ["x", "y", "z"])
        #expect(events.compactMap { $0.entryChange?.1 } == [t0 + 10, t0 + 20, t0 + 30])
        #expect(scheduler.nextDeadline() == nil)
    }

    @Test func replacingAnEntryChangeLeavesNoStaleEvent() {
        var scheduler = makeScheduler(budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setNextEntryChange("a", t0 + 10)
        scheduler.setNextEntryChange("a", t0 + 40)
        #expect(scheduler.nextDeadline() == t0 + 40)
        #expect(scheduler.popDue(now: t0 + 39).isEmpty)
        #expect(scheduler.popDue(now: t0 + 40).compactMap { $0.entryChange?.1 } == [t0 + 40])
        scheduler.setNextEntryChange("a", t0 + 50)
        scheduler.setNextEntryChange("a", nil)
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.popDue(now: t0 + 100).isEmpty)
    }

    @Test func replacingADueDateLeavesNoStaleEvent() throws {
        var scheduler = makeScheduler(window: 0, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 + 10)
        scheduler.setPolicyDue("a", t0 + 100)
        // The wake-up for t0 + 10 is still in the heap; it must be skipped, not fired.
        #expect(scheduler.nextDeadline() == t0 + 100)
        #expect(scheduler.popDue(now: t0 + 50).isEmpty)
        let batch = try #require(scheduler.popDue(now: t0 + 100).first?.batch)
        #expect(batch.members.map(\.wanted) == [t0 + 100])
        scheduler.completed("a", policyDue: nil)
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.popDue(now: t0 + 1_000).isEmpty)
    }

    @Test func movingADueDateEarlierFiresOnlyOnce() throws {
        var scheduler = makeScheduler(window: 0, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 + 100)
        scheduler.setPolicyDue("a", t0 + 10)
        #expect(scheduler.nextDeadline() == t0 + 10)
        #expect(scheduler.popDue(now: t0 + 200).compactMap(\.batch).map(\.ids) == [["a"]])
        #expect(scheduler.nextDeadline() == nil)
    }

    @Test func settingNeverClearsThePolicyReload() {
        var scheduler = makeScheduler(budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 + 10)
        scheduler.setPolicyDue("a", nil)
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.pendingReloads().isEmpty)
        #expect(scheduler.popDue(now: t0 + 100).isEmpty)
    }

    @Test func removeDropsPendingEvents() {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.add("b", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0 + 10)
        scheduler.setNextEntryChange("a", t0 + 5)
        scheduler.request("a", reason: .requested, at: t0)
        scheduler.setPolicyDue("b", t0 + 20)
        scheduler.remove("a")
        #expect(!scheduler.contains("a"))
        #expect(scheduler.pendingReload(for: "a") == nil)
        #expect(scheduler.pendingReloads().map(\.instance) == ["b"])
        #expect(scheduler.nextDeadline() == t0 + 20)
        // "a" must not be merged into b's launch either.
        let events = scheduler.popDue(now: t0 + 20)
        #expect(events.count == 1)
        #expect(events.first?.batch?.ids == ["b"])
    }

    @Test func aNewInstanceInAFreedSlotStartsEmpty() throws {
        // "b" takes the slot "a" left; nothing of a's due dates, request or budget carries over.
        var scheduler = makeScheduler(window: 0)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.restoreHistory("a", dates: [t0 - 10])
        scheduler.setNextEntryChange("a", t0 + 10)
        scheduler.setPolicyDue("a", t0 + 20)
        scheduler.request("a", reason: .requested, at: t0 + 5)
        scheduler.remove("a")
        scheduler.add("b", kind: "other", providerKey: "q")
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.heldEntries == 0)
        #expect(scheduler.budgetUsed("b", now: t0) == 0)
        #expect(scheduler.pendingRequest("b") == nil)
        scheduler.setPolicyDue("b", t0 + 30)
        let pending = try #require(scheduler.pendingReloads().first)
        #expect(scheduler.pendingReloads().count == 1)
        #expect((pending.instance, pending.kind, pending.due, pending.reason, pending.inFlight) == ("b", "other", t0 + 30, .policy, false))
        let events = scheduler.popDue(now: t0 + 30)
        #expect(events.compactMap(\.batch).map(\.providerKey) == ["q"])
        #expect(events.compactMap(\.batch).map(\.ids) == [["b"]])
    }

    @Test func instancesOfAKindFollowAddsAndRemoves() {
        var scheduler = makeScheduler()
        for index in 0..<6 { scheduler.add("i\(index)", kind: index % 2 == 0 ? "even" : "odd", providerKey: "p") }
        #expect(scheduler.instances(ofKind: "even").sorted() == ["i0", "i2", "i4"])
        // Removing from the middle moves the last into its place.
        scheduler.remove("i0")
        scheduler.remove("i3")
        #expect(scheduler.instances(ofKind: "even").sorted() == ["i2", "i4"])
        #expect(scheduler.instances(ofKind: "odd").sorted() == ["i1", "i5"])
        // A freed slot serves a new instance of another kind; an id added again may change kind.
        scheduler.add("i6", kind: "odd", providerKey: "p")
        scheduler.add("i2", kind: "odd", providerKey: "p")
        #expect(scheduler.instances(ofKind: "even") == ["i4"])
        #expect(scheduler.instances(ofKind: "odd").sorted() == ["i1", "i2", "i5", "i6"])
        #expect(scheduler.instances(ofKind: "none").isEmpty)
    }

    @Test func changingTheProviderMovesAPendingReload() throws {
        var scheduler = makeScheduler(window: 60, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.add("b", kind: "k", providerKey: "p")
        scheduler.add("c", kind: "k", providerKey: "q")
        scheduler.setPolicyDue("a", t0)
        scheduler.setPolicyDue("b", t0 + 30)
        scheduler.setPolicyDue("c", t0 + 30)
        // b now shares c's provider: a launches alone, and b merges into c's launch.
        scheduler.updateProvider("b", providerKey: "q")
        let first = try #require(scheduler.popDue(now: t0).first?.batch)
        #expect(first.providerKey == "p")
        #expect(first.ids == ["a"])
        let second = try #require(scheduler.popDue(now: t0 + 30).first?.batch)
        #expect(second.providerKey == "q")
        #expect(second.ids == ["b", "c"])
        // Without a provider nothing is listed or launched, but the due date is kept.
        scheduler.completed("c", policyDue: t0 + 100)
        scheduler.updateProvider("c", providerKey: "")
        #expect(scheduler.pendingReloads().isEmpty)
        #expect(scheduler.popDue(now: t0 + 200).isEmpty)
        scheduler.updateProvider("c", providerKey: "q")
        #expect(scheduler.pendingReload(for: "c")?.due == t0 + 100)
    }

    @Test func reAddingARemovedIDDoesNotReviveItsOldEvents() throws {
        // Removal takes the instance's nodes out of every heap; nothing may surface when the
        // same id comes back.
        var scheduler = makeScheduler(window: 0, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setNextEntryChange("a", t0 + 10)
        scheduler.setPolicyDue("a", t0 + 20)
        scheduler.remove("a")
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setNextEntryChange("a", t0 + 50)
        scheduler.setPolicyDue("a", t0 + 60)
        #expect(scheduler.nextDeadline() == t0 + 50)
        #expect(scheduler.popDue(now: t0 + 49).isEmpty)
        let events = scheduler.popDue(now: t0 + 60)
        #expect(events.compactMap { $0.entryChange?.1 } == [t0 + 50])
        #expect(events.compactMap(\.batch).map(\.ids) == [["a"]])
    }

    @Test func inFlightInstanceIsNotLaunchedAgainUntilCompleted() throws {
        var scheduler = makeScheduler(window: 0, budget: false)
        scheduler.add("a", kind: "k", providerKey: "p")
        scheduler.setPolicyDue("a", t0)
        #expect(scheduler.popDue(now: t0).count == 1)
        // A request while the provider runs waits for the launch to finish.
        scheduler.request("a", reason: .userInitiated, at: t0 + 1)
        #expect(scheduler.nextDeadline() == nil)
        #expect(scheduler.popDue(now: t0 + 5).isEmpty)
        #expect(scheduler.pendingReload(for: "a")?.inFlight == true)
        scheduler.completed("a", policyDue: t0 + 3_600)
        #expect(scheduler.nextDeadline() == t0 + 1)
        let batch = try #require(scheduler.popDue(now: t0 + 5).first?.batch)
        #expect(batch.members == [member("a", .userInitiated, t0 + 1)])
    }

    @Test func pendingReloadsAreEarliestFirst() {
        var scheduler = makeScheduler(budget: false)
        for (id, offset) in [("m", 50.0), ("z", 10), ("a", 10), ("q", 5)] {
            scheduler.add(id, kind: "kind-\(id)", providerKey: "p")
            scheduler.setPolicyDue(id, t0 + offset)
        }
        let pending = scheduler.pendingReloads()
        #expect(pending.map(\.instance) == ["q", "a", "z", "m"])
        #expect(pending.map(\.due) == [t0 + 5, t0 + 10, t0 + 10, t0 + 50])
        #expect(pending.map(\.kind) == ["kind-q", "kind-a", "kind-z", "kind-m"])
        #expect(pending.allSatisfy { $0.reason == .policy && !$0.inFlight && !$0.deferredByBudget })
    }
}
