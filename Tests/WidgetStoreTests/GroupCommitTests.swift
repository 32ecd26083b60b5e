import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Group commit: concurrent `apply` calls share transactions, and each keeps its own
/// all-or-nothing promise.
@Suite struct GroupCommitTests {
    let directory = temporaryDirectory("wgc")


    @Test func concurrentAppliesAllCommitAndSurviveAReopen() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<300 {
                    group.addTask {
                        let donation = Donation(
                            intentType: "T", parameters: ["n": .integer(Int64(index))], date: t0 + Double(index), id: "d\(index)",
                            group: nil)
                        try await store.apply([.putDonation(donation)])
                    }
                }
                try await group.waitForAll()
            }
        }
        let reopened = try SQLiteStateStore(directory: directory)
        let ids = Set(try await reopened.load().donations.compactMap(\.id))
        #expect(ids == Set((0..<300).map { "d\($0)" }))
    }

    @Test func aFailingCallIsUndoneAloneWithinItsGroup() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        let insert = "INSERT INTO stack (name, state) VALUES (?, '{}')"
        let outcomes = try SQLiteStateStore.write(
            [
                [(insert, ["first"])],
                // The first statement of this call succeeds; the second fails, so both are undone.
                [(insert, ["half"]), ("INSERT INTO no_such_table VALUES (1)", [])],
                [(insert, ["third"])],
            ], to: store.pool, path: store.path)
        #expect(outcomes.map { (try? $0.get()) != nil } == [true, false, true])
        let names = try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM stack ORDER BY name") }
        #expect(names == ["first", "third"])
    }
}

/// An answered change must be on disk: the connection that commits syncs the WAL at every
/// commit (GRDB's pool default, NORMAL, would not).
@Suite struct DurabilitySettingTests {
    @Test func theWriterSyncsEveryCommit() async throws {
        let directory = temporaryDirectory("wds")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        let level = try await store.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2)  // FULL
        let mode = try await store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
