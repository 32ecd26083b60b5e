import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Rows written by single-row inserts and upserts after a check that their instance exists:
/// a new row replaces the old one whole, and rows for an instance removed meanwhile are
/// skipped without taking the other changes of the call with them.
@Suite struct RowWriteTests {
    let directory = temporaryDirectory("wrw")

    func instance(_ id: String) -> WidgetInstance {
        WidgetInstance(id: id, kind: "k", family: .systemSmall, configuration: [:], created: t0)
    }

    @Test func aReplacedTimelineKeepsOnlyItsNewEntriesAndHead() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = WidgetTimeline(
            entries: (0..<4).map { WidgetEntry(date: t0 + Double($0) * 60, content: .integer($0)) }, policy: .after(t0 + 3600))
        let second = WidgetTimeline(
            entries: [WidgetEntry(date: t0 + 600, content: .string("only"), relevance: EntryRelevance(score: 2, duration: 60))],
            policy: .atEnd)
        let store = try SQLiteStateStore(directory: directory)
        try await store.apply([.putInstance(instance("a")), .putTimeline("a", first, receivedAt: t0)])
        try await store.apply([.putTimeline("a", second, receivedAt: t0 + 5)])
        let (entries, policyDates) = try await store.pool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM entry WHERE instance = 'a'"),
                try Double?.fetchAll(db, sql: "SELECT policyDate FROM timeline WHERE instance = 'a'")
            )
        }
        #expect(entries == 1)
        // One head row, its date column cleared by the upsert as the replace did.
        #expect(policyDates == [nil])
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.timeline(of: "a")?.timeline == second)
        #expect(loaded.timeline(of: "a")?.receivedAt == t0 + 5)
    }

    @Test func rowsOfARemovedInstanceAreSkippedAndTheOthersWritten() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let timeline = WidgetTimeline(entries: [WidgetEntry(date: t0, content: .string("x"))], policy: .never)
        let store = try SQLiteStateStore(directory: directory)
        try await store.apply([.putInstance(instance("a")), .putInstance(instance("b"))])
        try await store.apply([.deleteInstance("gone")])
        // One call: each change for "gone" (never created) is skipped, and the change after
        // each one, for "b", still runs.
        try await store.apply([
            .putTimeline("gone", timeline, receivedAt: t0), .putTimeline("b", timeline, receivedAt: t0),
            .recordReload("gone", date: t0, reason: .initial, budgeted: true),
            .recordReload("b", date: t0, reason: .initial, budgeted: true),
            .putRequest("gone", reason: .initial, wanted: t0, sequence: 1),
            .putRequest("b", reason: .initial, wanted: t0, sequence: 1),
            .putVisibility("gone", lastVisible: t0), .putVisibility("b", lastVisible: t0),
        ])
        // An upsert of the request and the visibility replaces each row's values.
        try await store.apply([
            .putRequest("b", reason: .configuration, wanted: t0 + 9, sequence: 2), .putVisibility("b", lastVisible: t0 + 9),
        ])
        let gone = try await store.pool.read { db in
            try ["timeline", "entry", "reload", "request", "visibility"].map {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0) WHERE instance = 'gone'") ?? -1
            }
        }
        #expect(gone == [0, 0, 0, 0, 0])
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.timeline(of: "b")?.timeline == timeline)
        #expect(loaded.timeline(of: "a") == nil)
        #expect(loaded.budgetedReloads["b"] == [t0])
        #expect(loaded.requests["b"] == StoredRequest(reason: .configuration, wanted: t0 + 9, sequence: 2))
        #expect(loaded.lastVisible["b"] == t0 + 9)
        #expect(loaded.requests.count == 1 && loaded.lastVisible.count == 1)
    }
}
