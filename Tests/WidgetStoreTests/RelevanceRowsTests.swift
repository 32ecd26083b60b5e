import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Settled relevance samples are rows (migration v6): appended and deleted by each reload,
/// not one JSON document rewritten.
@Suite struct RelevanceRowsTests {
    let directory = temporaryDirectory("wrr")


    func sample(_ minutes: Double, _ score: Double) -> RelevanceSample {
        RelevanceSample(date: t0 + minutes * 60, score: score, duration: 0)
    }

    @Test func changesAppendAndDeleteRows() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        try await store.apply([.putInstance(WidgetInstance(id: "a", kind: "k", family: .systemSmall, configuration: [:], created: t0))])
        try await store.apply([.updateRelevance("a", RelevanceRowChange(added: [sample(0, 9), sample(60, 5)]))])
        try await store.apply([.updateRelevance("a", RelevanceRowChange(removed: [t0 + 3600], added: [sample(120, 7), sample(180, 2)]))])
        #expect(try await store.load().settledRelevance["a"] == [sample(0, 9), sample(120, 7), sample(180, 2)])
        // Rows for an instance removed meanwhile are skipped, not an error.
        try await store.apply([.updateRelevance("gone", RelevanceRowChange(added: [sample(0, 1)]))])
        #expect(try await store.load().settledRelevance["gone"] == nil)
    }

    @Test func aVersion5DatabaseIsMigratedWithItsRelevanceHistories() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The current timeline carries relevance from +240 min; the JSON history holds earlier
        // timelines' samples before it, and the timeline's own samples.
        let timeline = WidgetTimeline(
            entries: [
                WidgetEntry(date: t0 + 180 * 60, content: .string("bare")),
                WidgetEntry(date: t0 + 240 * 60, content: .string("x"), relevance: EntryRelevance(score: 3, duration: 600)),
                WidgetEntry(date: t0 + 300 * 60, content: .string("y"), relevance: EntryRelevance(score: 8)),
            ], policy: .atEnd)
        let earlier = [sample(0, 5), sample(60, 9), sample(120, 4), sample(150, 6)]
        // Received after the earlier samples and before its own entries: ranking asks from then on.
        let received = t0 + 170 * 60
        let stored = earlier + [
            RelevanceSample(date: t0 + 240 * 60, score: 3, duration: 600), RelevanceSample(date: t0 + 300 * 60, score: 8, duration: 0),
        ]
        // The v2 to v5 layout: the whole history as one JSON document.
        let json = String(decoding: try WidgetJSON.encoder.encode(["samples": stored]), as: UTF8.self)
        do {
            let pool = try DatabasePool(path: directory + "/state.sqlite")
            try SQLiteStateStore.migrator.migrate(pool, upTo: "v5-entry-rows")
            try await pool.write { db in
                for id in ["a", "b"] {
                    try db.execute(
                        sql: "INSERT INTO instance (id, kind, family, configuration, created) VALUES (?, 'k', 'systemSmall', '{}', 0)",
                        arguments: [id])
                    for (sql, arguments) in SQLiteStateStore.timelineStatements(id, timeline, receivedAt: received.timeIntervalSince1970) {
                        try db.execute(sql: sql, arguments: arguments)
                    }
                }
                try db.execute(sql: "INSERT INTO relevance (instance, json) VALUES ('a', ?)", arguments: [json])
            }
        }
        let store = try SQLiteStateStore(directory: directory)
        let loaded = try await store.load()
        // 5 is outscored by the later 9, and 4 by the later 6: they can never be a window's best.
        #expect(loaded.settledRelevance["a"] == [sample(60, 9), sample(150, 6)])
        #expect(loaded.settledRelevance["b"] == nil)
        #expect(loaded.timeline(of: "a")?.timeline == timeline)
        // Restored with the timeline, it ranks as the JSON history did.
        let restored = RelevanceHistory(settled: loaded.settledRelevance["a"] ?? [], timeline: loaded.timeline(of: "a")?.timeline)
        let original = RelevanceHistory(samples: stored)
        for minutes in stride(from: 170.0, through: 400, by: 10) {
            #expect(restored.relative(at: t0 + minutes * 60, window: 86400) == original.relative(at: t0 + minutes * 60, window: 86400))
            #expect(restored.current(at: t0 + minutes * 60) == original.current(at: t0 + minutes * 60))
        }
        let tables = try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(!tables.contains("relevance") && tables.contains("relevance_sample"))
    }
}
