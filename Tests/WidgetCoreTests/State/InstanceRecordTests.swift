import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// One record per instance, kept small: its position table and its out-of-line fields.
@Suite struct InstanceRecordTests {
    func record(_ id: String) -> InstanceRecord {
        InstanceRecord(instance: WidgetInstance(id: id, kind: "k", family: .systemSmall, configuration: [:], created: t0))
    }

    /// Random puts, removals and updates against a dictionary doing the same: every id stays
    /// findable through growth, removals that shift runs back, and records moved by removal.
    @Test func theBookFindsWhatADictionaryFinds() {
        var random = SplitMix64(seed: 5)
        var book = InstanceBook()
        var model: [String: Int] = [:]
        for step in 0..<20_000 {
            // Few distinct ids, so removals and puts of present ids are frequent.
            let id = String(random.next() % 3_000, radix: 16)
            switch random.next() % 4 {
            case 0:
                book.remove(id)
                model[id] = nil
            case 1:
                book.update(id) { $0.replaced = UInt64(step) }
                if model[id] != nil { model[id] = step }
            default:
                var new = record(id)
                new.replaced = UInt64(step)
                book.put(new)
                model[id] = step
            }
        }
        #expect(book.count == model.count)
        for value in 0..<3_000 {
            let id = String(value, radix: 16)
            #expect(book[id]?.replaced == model[id].map(UInt64.init), "\(id)")
            #expect(book.contains(id) == (model[id] != nil))
        }
        for id in model.keys { book.remove(id) }
        #expect(book.count == 0)
        #expect(book["0"] == nil)
    }

    @Test func reservingAheadKeepsEveryRecordFindable() {
        var book = InstanceBook()
        book.put(record("before"))
        book.reserveCapacity(10_000)
        for index in 0..<10_000 { book.put(record("i\(index)")) }
        #expect(book.count == 10_001)
        #expect(book["before"] != nil)
        #expect((0..<10_000).allSatisfy { book["i\($0)"]?.id == "i\($0)" })
    }

    @Test func puttingManyAtOnceIsPuttingThemOneByOne() {
        func records(_ ids: [String]) -> [InstanceRecord] {
            ids.enumerated().map { index, id in
                var made = record(id)
                made.replaced = UInt64(index)
                made.visible = index.isMultiple(of: 2)
                made.timeline = index == 1 ? StoredTimeline(timeline: DaemonState.timeline([0]), receivedAt: t0) : nil
                return made
            }
        }
        // Into an empty book, with and without two records for one id ("\u{212A}", the Kelvin
        // sign, is the same String as "K").
        for ids in [["a", "b", "c", "d"], ["K", "b", "\u{212A}", "d"], []] {
            var many = InstanceBook()
            many.put(contentsOf: records(ids))
            var one = InstanceBook()
            for made in records(ids) { one.put(made) }
            #expect(many.count == one.count)
            #expect(many.timelines == one.timelines)
            #expect(many.visible == one.visible)
            #expect(Set(many.all) == Set(one.all))
            #expect(ids.allSatisfy { many[$0] == one[$0] })
        }
        // Into a book that has records already.
        var book = InstanceBook()
        book.put(record("b"))
        book.put(contentsOf: records(["a", "b"]))
        #expect(book.count == 2)
        #expect(book["b"]?.replaced == 1)
    }

    @Test func rareFieldsAreKeptOutOfLineAndDroppedWhenEmpty() {
        var a = record("a")
        #expect(a.request == nil && a.matched.isEmpty && a.failures == nil && a.relevance.isEmpty)
        a.request = StoredRequest(reason: .initial, wanted: t0, sequence: 3)
        a.failures = FailureStreak(cause: "exit 1", message: "boom")
        a.relevance.install(DaemonState.timeline([0, 60], scores: [2, nil]), at: t0)
        #expect(a.request?.sequence == 3)
        #expect(a.lastError == "boom")
        #expect(a.relevance.timeline.map(\.score) == [2])

        // A copy shares the box until either changes.
        var b = a
        b.request = nil
        b.failures?.repeats += 1
        #expect(a.request?.sequence == 3)
        #expect(a.failures?.repeats == 0)
        #expect(b.request == nil)
        #expect(b.failures?.repeats == 1)
        #expect(a != b)

        b.failures = nil
        b.relevance = RelevanceHistory()
        #expect(b == record("a"))
        #expect(b.hashValue == record("a").hashValue)
    }

    @Test func lastVisibleIsKeptAsADate() {
        var a = record("a")
        #expect(a.lastVisible == nil)
        a.lastVisible = t0 + 0.25
        #expect(a.lastVisible == t0 + 0.25)
        a.lastVisible = Date(timeIntervalSinceReferenceDate: 0)
        #expect(a.lastVisible == Date(timeIntervalSinceReferenceDate: 0))
        a.lastVisible = nil
        #expect(a == record("a"))
    }
}
