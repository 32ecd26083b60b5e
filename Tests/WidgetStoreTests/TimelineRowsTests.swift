import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Timelines are stored as a head row plus one row per entry (migration v5); entry content
/// keeps its JSON text exactly.
@Suite struct TimelineRowsTests {
    let directory = temporaryDirectory("wtr")


    func instance(_ id: String) -> WidgetInstance {
        WidgetInstance(id: id, kind: "k", family: .systemSmall, configuration: ["city": .string("Oslo")], created: t0)
    }

    @Test func everyPolicyAndEntryShapeRoundTrips() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let timelines: [String: WidgetTimeline] = [
            "a": WidgetTimeline(
                entries: [
                    WidgetEntry(date: t0, content: .object(["n": .integer(1), "s": .string("ü \"q\"")])),
                    WidgetEntry(date: t0 + 60, content: .number(2.5), relevance: EntryRelevance(score: 3, duration: 600)),
                ], policy: .after(t0 + 3600)),
            "b": WidgetTimeline(entries: [WidgetEntry(date: t0, content: .null)], policy: .atEnd),
            "c": WidgetTimeline(entries: [], policy: .never),
            "d": WidgetTimeline(
                entries: [
                    WidgetEntry(date: t0, content: .string("no actions")),
                    WidgetEntry(
                        date: t0 + 60, content: .string("two"),
                        actions: [
                            WidgetAction(id: "done", title: "Done ✓", intent: ActionIntent(type: "Toggle", parameters: ["task": .string("4\"2")])),
                            WidgetAction(id: "undo", title: "Undo", intent: ActionIntent(type: "Toggle")),
                        ]),
                ], policy: .never),
        ]
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply(timelines.keys.sorted().map { .putInstance(instance($0)) })
            try await store.apply(timelines.map { .putTimeline($0.key, $0.value, receivedAt: t0) })
            // Replacing a timeline removes the entries it no longer has.
            try await store.apply([.putTimeline("b", timelines["b"]!, receivedAt: t0 + 5)])
        }
        let loaded = try await SQLiteStateStore(directory: directory).load()
        for (id, timeline) in timelines {
            #expect(loaded.timeline(of: id)?.timeline == timeline, "\(id)")
        }
        #expect(loaded.timeline(of: "b")?.receivedAt == t0 + 5)
        #expect(loaded.timeline(of: "a")?.timeline.entries[0].content == .object(["n": .integer(1), "s": .string("ü \"q\"")]))
        #expect(loaded.instances.map(\.configuration) == Array(repeating: ["city": .string("Oslo")], count: 4))
        #expect(loaded.timeline(of: "d")?.timeline.entries[1].actions.map(\.id) == ["done", "undo"])
    }

    @Test func aVersion4DatabaseIsMigratedWithItsTimelines() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let timeline = WidgetTimeline(
            entries: [WidgetEntry(date: t0, content: .string("old"), relevance: EntryRelevance(score: 1))], policy: .atEnd)
        do {
            let pool = try DatabasePool(path: directory + "/state.sqlite")
            try SQLiteStateStore.migrator.migrate(pool, upTo: "v4-visibility")
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO instance (id, kind, family, configuration, created) VALUES ('a', 'k', 'systemSmall', '{}', 0)")
                try db.execute(
                    sql: "INSERT INTO timeline (instance, json, receivedAt) VALUES ('a', ?, 10)",
                    arguments: [String(decoding: try WidgetJSON.encoder.encode(timeline), as: UTF8.self)])
            }
        }
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.timeline(of: "a")?.timeline == timeline)
        #expect(loaded.timeline(of: "a")?.receivedAt == Date(timeIntervalSince1970: 10))
    }
}
