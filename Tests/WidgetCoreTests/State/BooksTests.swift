import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// The books the state keeps: records per instance, stacks, donations.
@Suite struct BooksTests {
    func record(_ id: String, created offset: TimeInterval = 0) -> InstanceRecord {
        InstanceRecord(instance: WidgetInstance(id: id, kind: "k", family: .systemSmall, configuration: [:], created: t0 + offset))
    }

    @Test func theInstanceBookKeepsItsCountsAsRecordsChange() {
        var book = InstanceBook()
        book.put(record("b", created: 10))
        var a = record("a", created: 10)
        a.timeline = StoredTimeline(timeline: DaemonState.timeline([0]), receivedAt: t0)
        a.visible = true
        book.put(a)
        book.put(record("c", created: 5))
        #expect(book.count == 3)
        #expect(book.timelines == 1)
        #expect(book.visible == ["a"])
        #expect(book.inPlacementOrder.map(\.id) == ["c", "a", "b"])
        book.update("b") { $0.visible = true }
        book.update("a") { record in
            record.timeline = nil
            record.visible = false
        }
        #expect(book.timelines == 0)
        #expect(book.visible == ["b"])
        book.update("nobody") { $0.visible = true }
        #expect(book.visible == ["b"])
        book.remove("b")
        #expect(book.visible.isEmpty)
        #expect(book.count == 2)
    }

    @Test func aRecordKeepsItsHandleWhenOthersAreRemovedAndAFreedHandleIsGivenAgain() {
        var book = InstanceBook()
        var handles: [InstanceID: RecordHandle] = [:]
        for id in ["a", "b", "c", "d", "e"] { handles[id] = book.put(record(id)) }
        #expect(Set(handles.values).count == 5)
        // Removing "a" moves the last record into its position; no handle changes.
        book.remove("a")
        book.remove("c")
        for id in ["b", "d", "e"] {
            #expect(book.handle(of: id) == handles[id], "\(id)")
            #expect(book.instanceID(of: handles[id]!) == id)
            #expect(book[handles[id]!].id == id)
            #expect(book.read(handles[id]!) { $0.pointee.id } == id)
        }
        #expect(!book.contains(handles["a"]!) && !book.contains(handles["c"]!))
        // Putting a record again keeps its handle; a new record takes a freed one.
        #expect(book.put(record("d", created: 5)) == handles["d"])
        let f = book.put(record("f"))
        #expect([handles["a"], handles["c"]].contains(f))
        #expect(book.instanceID(of: f) == "f")
        for position in book.all.indices {
            #expect(book.handle(of: book.all[position].id) == book.handle(atPosition: position))
        }
    }

    @Test func removingARecordKeepsEveryOtherOneFindable() {
        var book = InstanceBook()
        for id in ["a", "b", "c", "d"] { book.put(record(id)) }
        book.remove("a")  // the last record moves into its place
        book.remove("nobody")
        #expect(book.count == 3)
        #expect(book["a"] == nil)
        for id in ["b", "c", "d"] { #expect(book[id]?.id == id) }
        book.update("d") { $0.visible = true }
        #expect(book["d"]?.visible == true)
        book.put(record("a"))
        book.remove("d")
        #expect(Set(book.all.map(\.id)) == ["a", "b", "c"])
        #expect(book.visible.isEmpty)
        for id in ["a", "b", "c"] { #expect(book[id]?.id == id) }
    }

    @Test func theStackBookKnowsWhichStacksHoldAnInstance() {
        var book = StackBook()
        book.put(StackState(name: "work", instances: ["a", "b"]))
        book.put(StackState(name: "home", instances: ["b"]))
        #expect(book.containing("b") == ["home", "work"])
        #expect(book.containing("a") == ["work"])
        #expect(book.isStacked("a"))
        book.put(StackState(name: "work", instances: ["b", "c"]))
        #expect(!book.isStacked("a"))
        #expect(book.containing("c") == ["work"])
        book.remove("home")
        #expect(book.containing("b") == ["work"])
        #expect(book.names == ["work"])
    }

    @Test func theEarliestRecheckIsKeptWithoutAScan() {
        var book = StackBook()
        for name in ["a", "b", "c"] { book.put(StackState(name: name)) }
        book.setRecheck("a", t0 + 60)
        book.setRecheck("b", t0 + 30)
        book.setRecheck("c", t0 + 90)
        #expect(book.nextRecheck == t0 + 30)
        #expect(book.due(at: t0 + 60) == ["a", "b"])
        book.setRecheck("b", nil)
        #expect(book.nextRecheck == t0 + 60)
        book.setRecheck("a", t0 + 120)
        #expect(book.nextRecheck == t0 + 90)
        book.remove("c")
        #expect(book.nextRecheck == t0 + 120)
        book.clearRechecks()
        #expect(book.nextRecheck == nil)
        #expect(book.due(at: t0 + 1000).isEmpty)
    }

    @Test func theDonationLogKeepsTheStoresOrderPerIntentType() {
        var log = DonationLog()
        let utc = Calendar(identifier: .gregorian)
        let late = log.add(Donation(intentType: "A", parameters: [:], date: t0 + 60, id: "late"), calendar: utc)
        log.add(Donation(intentType: "A", parameters: [:], date: t0, id: "early"), calendar: utc)
        log.add(Donation(intentType: "B", parameters: [:], date: t0 + 30, id: "b"), calendar: utc)
        // Of equal dates the one recorded later is newer.
        log.add(Donation(intentType: "A", parameters: [:], date: t0 + 60, id: "late2"), calendar: utc)
        #expect(log.entries(ofType: "A").map(\.donation.id) == ["early", "late", "late2"])
        #expect(log.all.map(\.donation.id) == ["early", "b", "late", "late2"])
        #expect(log.count == 4)
        #expect(late.order < log.entries(ofType: "A").last!.order)

        // Retention drops the oldest overall, across types.
        #expect(log.trim(to: 2).map(\.donation.id) == ["early", "b"])
        #expect(log.entries(ofType: "B").isEmpty)
        #expect(log.count == 2)
        #expect(log.delete { $0.id == "late" }.map(\.donation.id) == ["late"])
        #expect(log.all.map(\.donation.id) == ["late2"])
    }

    @Test func aFailureStreakIsReportedOnceThenCounted() {
        var (streak, verdict) = FailureStreak.after(nil, cause: "exit 3", message: "exited with status 3: down")
        #expect(verdict == .report(ended: nil))
        (streak, verdict) = FailureStreak.after(streak, cause: "exit 3", message: "exited with status 3: still down")
        #expect(verdict == .repeated(times: 1))
        (streak, verdict) = FailureStreak.after(streak, cause: "exit 3", message: "exited with status 3: down")
        #expect(verdict == .repeated(times: 2))
        // A new cause ends the run with its count; a cause seen once has no repeats to sum up.
        (streak, verdict) = FailureStreak.after(streak, cause: "signal 11", message: "killed by signal 11")
        #expect(verdict == .report(ended: FailureStreak(cause: "exit 3", message: "exited with status 3: down", repeats: 2)))
        (_, verdict) = FailureStreak.after(streak, cause: "exit 1", message: "exited with status 1")
        #expect(verdict == .report(ended: nil))
    }
}

/// Plans in flight and what they hold.
@Suite struct ChangeLedgerTests {
    func plan(exclusive: [StateKey] = [], shared: [StateKey] = [], instances: Int = 0) -> Plan {
        var plan = Plan()
        for key in exclusive { plan.keys.take(key) }
        for key in shared { plan.keys.share(key) }
        plan.reservation.instances = instances
        return plan
    }

    @Test func exclusiveKeysConflictWithAnyHoldSharedOnlyWithExclusive() {
        var ledger = ChangeLedger()
        let swipe = plan(exclusive: [.stack("home")])
        #expect(!ledger.conflicts(swipe.keys))
        ledger.hold(swipe)
        #expect(ledger.conflicts(plan(exclusive: [.stack("home")]).keys))
        #expect(!ledger.conflicts(plan(exclusive: [.stack("work"), .instance("a")]).keys))
        let donation = plan(shared: [.donations])
        ledger.hold(donation)
        #expect(!ledger.conflicts(plan(shared: [.donations]).keys), "donations side by side")
        #expect(ledger.conflicts(plan(exclusive: [.donations]).keys), "a deletion waits for them")
        ledger.release(donation)
        #expect(!ledger.conflicts(plan(exclusive: [.donations]).keys))
        ledger.release(swipe)
        #expect(ledger.isIdle)
    }

    @Test func reservationsCountWhileInFlight() {
        var ledger = ChangeLedger()
        let add = plan(exclusive: [.instance("x")], instances: 1)
        ledger.hold(add)
        ledger.hold(plan(exclusive: [.instance("y")], instances: 1))
        #expect(ledger.reserved.instances == 2)
        ledger.release(add)
        #expect(ledger.reserved.instances == 1)
        #expect(ledger.inFlight == 1)
    }

    @Test func keysTakenExclusivelyAreNotAlsoShared() {
        var keys = Keys()
        keys.share(.instance("a"))
        keys.take(.instance("a"))
        keys.share(.instance("a"))
        #expect(keys.exclusive == [.instance("a")])
        #expect(keys.shared.isEmpty)
    }
}

/// The match index answers what `Donation.matches` answers for every instance, without a scan.
@Suite struct MatchIndexTests {
    @Test func theIndexAgreesWithMatchingOneByOne() {
        var random = SplitMix64(seed: 12)
        let values: [JSONValue] = [.string("Oslo"), .string("Rome"), .integer(1), .bool(true)]
        let schemas = [
            IntentSchema(type: "A", parameters: [], supportedCombinations: [["city"], ["city", "n"]]),
            IntentSchema(type: "A", parameters: [], supportedCombinations: [["n"]]),
            IntentSchema(type: "B", parameters: [], supportedCombinations: [[], ["city"]]),
        ]
        var index = MatchIndex()
        var placed: [(WidgetInstance, IntentSchema)] = []
        for number in 0..<300 {
            var configuration: [String: JSONValue] = [:]
            for name in ["city", "n"] where Bool.random(using: &random) {
                configuration[name] = values.randomElement(using: &random)!
            }
            let instance = WidgetInstance(id: "i\(number)", kind: "k", family: .systemSmall, configuration: configuration, created: t0)
            let schema = schemas.randomElement(using: &random)!
            index.insert(instance, schema: schema)
            placed.append((instance, schema))
        }
        // Some leave again.
        for (instance, schema) in placed.prefix(40) { index.remove(instance, schema: schema) }
        let kept = placed.dropFirst(40)
        for _ in 0..<200 {
            var parameters: [String: JSONValue] = [:]
            for name in ["city", "n", "other"] where Bool.random(using: &random) {
                parameters[name] = values.randomElement(using: &random)!
            }
            let donation = Donation(intentType: ["A", "B", "C"].randomElement(using: &random)!, parameters: parameters, date: t0)
            let expected = Set(kept.filter { donation.matches($0.1, configuration: $0.0.configuration) }.map(\.0.id))
            #expect(index.matching(donation) == expected)
        }
    }
}
