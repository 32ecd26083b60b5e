import Foundation
import GRDB
import Synchronization
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// A stored row that does not decode is left out and reported (its
/// instance shown as failed), the rest of the state loads, and nothing is written to the file
/// until the store is opened for writing.
@Suite struct QuarantineTests {
    let directory = temporaryDirectory("wsq")

    var database: String { directory + "/state.sqlite" }

    func instance(_ id: String, created: Double) -> WidgetInstance {
        WidgetInstance(id: id, kind: "k", family: .systemSmall, configuration: ["slot": .number(1)], created: t0 + created)
    }

    func timeline(_ name: String) -> WidgetTimeline {
        WidgetTimeline(
            entries: [
                WidgetEntry(date: t0, content: .string(name), relevance: EntryRelevance(score: 1, duration: 60)),
                WidgetEntry(date: t0 + 60, content: .null),
            ],
            policy: .atEnd)
    }

    /// Instances "a" to "j", each with a timeline; stacks, donations, a request, visibility,
    /// relevance and log rows. Closed, so that the file holds everything.
    func seed() async throws {
        let store = try SQLiteStateStore(directory: directory)
        let ids = (0..<10).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        try await store.apply(ids.enumerated().map { .putInstance(instance($1, created: Double($0))) })
        try await store.apply(ids.map { .putTimeline($0, timeline($0), receivedAt: t0) })
        try await store.apply([
            .putStack(StackState(name: "home", instances: ["a", "b"])), .putStack(StackState(name: "work", instances: ["c"])),
            .putDonation(Donation(intentType: "T", parameters: ["p": .string("1")], date: t0, id: "d1")),
            .putDonation(Donation(intentType: "T", parameters: ["p": .string("2")], date: t0 + 1, id: "d2")),
            .putRequest("a", reason: .userInitiated, wanted: t0, sequence: 1),
            .putRequest("b", reason: .userInitiated, wanted: t0, sequence: 2),
            .recordReload("a", date: t0, reason: .policy, budgeted: true),
            .recordReload("b", date: t0, reason: .policy, budgeted: true),
            .putVisibility("a", lastVisible: t0), .putVisibility("b", lastVisible: t0),
            .updateRelevance("a", RelevanceRowChange(added: [RelevanceSample(date: t0 - 60, score: 2, duration: 0)])),
            .updateRelevance("b", RelevanceRowChange(added: [RelevanceSample(date: t0 - 60, score: 3, duration: 0)])),
        ])
        for minute in 0..<3 {
            try await store.apply([.appendDecision(RotationDecision(
                date: t0 + Double(minute) * 60, stack: "home", from: "a", to: "b", candidate: "b", reason: .betterCandidate,
                candidates: []))])
        }
        store.close()
    }

    /// What sqlite3 would do by hand: a change through a connection of its own.
    func execute(_ sql: String) throws {
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// One value read with a connection of its own (synchronous: GRDB's async reads otherwise).
    func scalar(_ sql: String) throws -> String? {
        try DatabaseQueue(path: database).read { try String.fetchOne($0, sql: sql) }
    }

    func entryColumns() throws -> [String] {
        try DatabaseQueue(path: database).read { try $0.columns(in: "entry").map(\.name) }
    }

    /// A file as widgetd left it before migration v11.
    func makeOlderSchema() throws {
        let queue = try DatabaseQueue(path: database)
        try SQLiteStateStore.migrator.migrate(queue, upTo: "v10-fresh-relevance")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO instance (id, kind, family, configuration, created) VALUES ('a', 'k', 'systemSmall', '{}', 0)")
            try db.execute(sql: "INSERT INTO timeline (instance, policy, receivedAt) VALUES ('a', 'never', 0)")
            try db.execute(sql: "INSERT INTO entry (instance, position, date, content) VALUES ('a', 0, 0, '\"old\"')")
        }
    }

    /// The file's bytes, compared whole.
    func checksum() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: database))
    }

    /// The size of the -wal file (0 when there is none).
    func walSize() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: database + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func everyColumnAnInstanceDecodesFromFailsItAloneAndLeavesTheFileAsItWas() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await seed()
        // One column of each instance but "j" made undecodable, with integrity_check still ok.
        let damages: [(id: String, sql: String, table: String, reason: String)] = [
            ("a", "UPDATE instance SET configuration = '{x' WHERE id = 'a'", "instance", "configuration is not a JSON object"),
            ("b", "UPDATE instance SET family = 'systemHuge' WHERE id = 'b'", "instance", "family 'systemHuge'"),
            ("c", "UPDATE instance SET created = 'yesterday' WHERE id = 'c'", "instance", "created is not a number"),
            ("d", "UPDATE timeline SET policy = 'sometimes' WHERE instance = 'd'", "timeline", "policy 'sometimes'"),
            ("e", "UPDATE timeline SET policy = 'after', policyDate = NULL WHERE instance = 'e'", "timeline", "policy 'after' without"),
            ("f", "UPDATE entry SET content = '{\"v\": tru' WHERE instance = 'f' AND position = 1", "entry", "position 1: content is not JSON"),
            ("g", "UPDATE entry SET date = 1e300 WHERE instance = 'g' AND position = 0", "entry", "position 0: date is not a number"),
            ("h", "UPDATE entry SET actions = '[{' WHERE instance = 'h' AND position = 0", "entry", "actions are not JSON"),
            ("i", "UPDATE entry SET score = 'high' WHERE instance = 'i' AND position = 0", "entry", "score is not a finite number"),
        ]
        for damage in damages { try execute(damage.sql) }
        #expect(try scalar("PRAGMA integrity_check") == "ok")
        let before = try checksum()

        let store = try SQLiteStateStore(directory: directory, deferWriting: true)
        let state = try await store.load()
        #expect(state.instances.map(\.id) == ["j"])
        #expect(state.timeline(of: "j")?.timeline.entries.count == 2)
        // In placement order: "c"'s creation date reads as 1970.
        #expect(state.failedInstances.map(\.id) == ["c", "a", "b", "d", "e", "f", "g", "h", "i"])
        for damage in damages {
            let failed = try #require(state.failedInstances.first { $0.id == damage.id })
            #expect(failed.reason.hasPrefix("stored row does not decode: \(damage.table) "), "\(failed.reason)")
            #expect(failed.reason.contains(damage.reason), "\(failed.reason)")
            let row = try #require(state.quarantined.first { $0.advice.contains("instance \(damage.id) ") })
            #expect(row.table == damage.table)
            #expect(row.advice.contains("'widgetctl remove \(damage.id)'"))
            #expect(row.advice.contains("sqlite3 \(database) \"SELECT * FROM \(damage.table) WHERE "))
        }
        #expect(state.failedInstances.first { $0.id == "b" }?.family == nil)
        #expect(state.failedInstances.first { $0.id == "a" }?.family == .systemSmall)
        // Rows of other tables that belong to a failed instance are not loaded for it either.
        #expect(state.requests["a"] == nil)
        #expect(try checksum() == before, "a store not yet opened for writing changed the file")
        #expect(walSize() == 0)

        // Opened for writing, removing one failed instance deletes its rows; the others stay.
        try store.openForWriting()
        try await store.apply([.deleteInstance("a")])
        store.close()
        let again = try await SQLiteStateStore(directory: directory).load()
        #expect(again.failedInstances.map(\.id) == ["c", "b", "d", "e", "f", "g", "h", "i"])
        #expect(try scalar("SELECT count(*) FROM entry WHERE instance = 'a'") == "0")
    }

    @Test func rowsOfOtherTablesAreLeftOutAndCounted() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await seed()
        try execute("""
            UPDATE stack SET state = '{"name": "work", "instances": 3}' WHERE name = 'work';
            UPDATE donation SET json = '{"intentType": "T", "parameters": {"p": ' WHERE id = 'd2';
            UPDATE request SET reason = 'whim' WHERE instance = 'b';
            UPDATE reload SET date = 'noon' WHERE instance = 'b';
            UPDATE visibility SET lastVisible = x'00' WHERE instance = 'b';
            UPDATE relevance_sample SET score = 'lots' WHERE instance = 'b';
            """)
        let before = try checksum()
        let store = try SQLiteStateStore(directory: directory, deferWriting: true)
        let state = try await store.load()
        #expect(state.failedInstances.isEmpty)
        #expect(state.instances.count == 10)
        #expect(state.stacks.map(\.name) == ["home"])
        #expect(state.donations.map(\.id) == ["d1"])
        #expect(Array(state.requests.keys) == ["a"])
        #expect(Array(state.budgetedReloads.keys) == ["a"])
        #expect(Array(state.lastVisible.keys) == ["a"])
        #expect(Array(state.settledRelevance.keys) == ["a"])
        let tables = state.quarantined.map(\.table).sorted()
        #expect(tables == ["donation", "relevance_sample", "reload", "request", "stack", "visibility"])
        for row in state.quarantined {
            #expect(row.advice.contains("sqlite3 \(database) \"SELECT * FROM \(row.table) WHERE \(row.key)\""), "\(row)")
        }
        // The keys the advice gives select exactly the row.
        for row in state.quarantined {
            let count = try scalar("SELECT count(*) FROM \(row.table) WHERE \(row.key)")
            #expect(count == "1", "\(row.table) WHERE \(row.key)")
        }
        #expect(state.quarantined.first { $0.table == "stack" }?.key == "name = 'work'")
        #expect(try checksum() == before)
    }

    @Test func aLogRowThatDoesNotDecodeIsLeftOutOfAnswersAndToldOnce() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await seed()
        try execute("UPDATE decision SET json = 'nope' WHERE rowid = 2")
        let store = try SQLiteStateStore(directory: directory)
        #expect(try await store.decisions(stack: nil, since: nil, limit: 10).count == 2)
        let told = store.takeSkippedRows()
        #expect(told.map(\.key) == ["rowid = 2"])
        #expect(told.first?.table == "decision")
        #expect(try await store.decisions(stack: nil, since: nil, limit: 10).count == 2)
        #expect(store.takeSkippedRows().isEmpty, "told once")
    }

    @Test func anOlderSchemaIsReadFromAMigratedCopyAndMigratedOnlyWhenOpenedForWriting() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try makeOlderSchema()
        let before = try checksum()
        let store = try SQLiteStateStore(directory: directory, deferWriting: true)
        let state = try await store.load()
        #expect(state.instances.map(\.id) == ["a"])
        #expect(state.timeline(of: "a")?.timeline.entries.map(\.content) == [.string("old")])
        #expect(try checksum() == before, "read before the start could fail, the file was migrated")
        try store.openForWriting()
        store.close()
        #expect(try entryColumns().contains("actions"))
    }

    @Test func tablesMissingThatTheMigrationsMadeAreDamageNotAnotherError() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await seed()
        try execute("DROP TABLE visibility")
        let before = try checksum()
        let error = #expect(throws: StoreError.self) { try SQLiteStateStore(directory: directory, deferWriting: true) }
        #expect(error?.kind == .corrupt)
        #expect(error?.description.contains("its tables are not widgetd's") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("no such table: visibility") == true, "\(error?.description ?? "")")
        #expect(try checksum() == before)
    }

    @Test func changesSubmittedBeforeOpeningForWritingWaitAndAreWritten() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await seed()
        let before = try checksum()
        let store = try SQLiteStateStore(directory: directory, deferWriting: true)
        _ = try await store.load()
        let written = Mutex(false)
        store.submit([.deleteInstance("a")]) { result in
            if case .success = result { written.withLock { $0 = true } }
        }
        #expect(try checksum() == before)
        #expect(written.withLock { $0 } == false)
        try store.openForWriting()
        // Written in order: once this one is, so is the one before.
        try await store.apply([.deleteInstance("none")])
        #expect(written.withLock { $0 })
        store.close()
        #expect(try await SQLiteStateStore(directory: directory).load().instances.count == 9)
    }
}
