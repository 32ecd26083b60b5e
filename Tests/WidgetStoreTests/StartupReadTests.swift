import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// The start-up read takes every table in the order it lies on disk; what it hands over is in
/// placement order with each timeline next to its instance, as a sorted, joined read gave.
@Suite struct StartupReadTests {
    let directory = temporaryDirectory("wsr")


    func instance(_ id: String, created: Date, kind: String = "k") -> WidgetInstance {
        WidgetInstance(id: id, kind: kind, family: .accessoryRectangular, configuration: [:], created: created)
    }

    func timeline(_ name: String) -> WidgetTimeline {
        WidgetTimeline(entries: [WidgetEntry(date: t0, content: .string(name)), WidgetEntry(date: t0 + 60, content: .null)], policy: .atEnd)
    }

    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: directory + "/state.sqlite")
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    @Test func instancesComeInPlacementOrderWithTheirTimelines() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Inserted out of placement order; equal creation dates are ordered by id, as bytes.
        let placed: [(String, TimeInterval)] = [("z", 30), ("é", 10), ("b", 10), ("a", 20), ("ea", 10)]
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply(placed.map { .putInstance(instance($0.0, created: t0 + $0.1, kind: $0.0 == "z" ? "other" : "k")) })
            try await store.apply(["z", "b", "é"].map { .putTimeline($0, timeline($0), receivedAt: t0 + 1) })
            try await store.apply([.putTimeline("a", WidgetTimeline(entries: [], policy: .after(t0)), receivedAt: t0 + 2)])
        }
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.instances.map(\.id) == ["b", "ea", "é", "a", "z"])
        #expect(loaded.instances.map(\.kind) == ["k", "k", "k", "k", "other"])
        #expect(loaded.instances.allSatisfy { $0.family == .accessoryRectangular })
        #expect(loaded.timelines.count == 5)
        #expect(loaded.timelines.map { $0?.timeline.entries.first?.content.stringValue } == ["b", nil, "é", nil, "z"])
        #expect(loaded.timelines[3]?.timeline == WidgetTimeline(entries: [], policy: .after(t0)))
        #expect(loaded.timelines[3]?.receivedAt == t0 + 2)
        #expect(loaded.timelines[0]?.timeline == timeline("b"))
        #expect(loaded.timelines[0]?.receivedAt == t0 + 1)
    }

    /// Ids that share their first eight bytes are told apart by their bytes.
    @Test func longIdsSharingAPrefixFindTheirTimelines() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ids = ["instance-10", "instance-9", "instance-100", "instance", "instance-1", "instancf", "instanc"]
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply(ids.enumerated().map { .putInstance(instance($1, created: t0 + Double($0))) })
            try await store.apply(ids.filter { $0 != "instance-1" }.map { .putTimeline($0, timeline($0), receivedAt: t0) })
        }
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.instances.map(\.id) == ids)
        #expect(loaded.timelines.map { $0?.timeline.entries.first?.content.stringValue } == ids.map { $0 == "instance-1" ? nil : $0 })
    }

    @Test func entriesWithoutATimelineRowAreNotATimeline() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply([.putInstance(instance("a", created: t0)), .putInstance(instance("b", created: t0 + 1))])
            try await store.apply([.putTimeline("a", timeline("a"), receivedAt: t0), .putTimeline("b", timeline("b"), receivedAt: t0)])
            store.close()
        }
        try execute("DELETE FROM timeline WHERE instance = 'a'")
        let loaded = try await SQLiteStateStore(directory: directory).load()
        #expect(loaded.timelines.map { $0 == nil } == [true, false])
        #expect(loaded.timeline(of: "b")?.timeline == timeline("b"))
    }

    @Test func entryRowsOutOfDateOrderAreSortedAsOnArrival() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply([.putInstance(instance("a", created: t0))])
            try await store.apply([.putTimeline("a", timeline("a"), receivedAt: t0)])
            store.close()
        }
        // A file edited by hand: the second position holds the earlier date.
        try execute("UPDATE entry SET date = date - 3600 WHERE position = 1")
        let loaded = try await SQLiteStateStore(directory: directory).load()
        let entries = try #require(loaded.timeline(of: "a")?.timeline.entries)
        #expect(entries.map(\.date) == [t0 - 3540, t0])
        #expect(entries.map(\.content) == [.null, .string("a")])
    }
}
