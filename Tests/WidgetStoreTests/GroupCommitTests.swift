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
                [StoreStatement(insert, ["first"])],
                // The first statement of this call succeeds; the second fails, so both are undone.
                [StoreStatement(insert, ["half"]), StoreStatement("INSERT INTO no_such_table VALUES (1)")],
                [StoreStatement(insert, ["third"])],
            ], to: store.pool, path: store.path)
        #expect(outcomes.map { (try? $0.get()) != nil } == [true, false, true])
        let names = try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM stack ORDER BY name") }
        #expect(names == ["first", "third"])
    }

    /// A large call gets a transaction of its own (no savepoint): failing, it is still undone
    /// alone, and the calls on either side of it commit.
    @Test func aFailingLargeCallIsUndoneAloneBetweenOthers() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        let insert = "INSERT INTO stack (name, state) VALUES (?, '{}')"
        let large: [StoreStatement] =
            (0..<SQLiteStateStore.largeChange).map { StoreStatement(insert, ["large\($0)"]) }
            + [StoreStatement("INSERT INTO no_such_table VALUES (1)")]
        let fitting: [StoreStatement] = (0..<SQLiteStateStore.largeChange + 1).map { StoreStatement(insert, ["big\($0)"]) }
        let outcomes = try SQLiteStateStore.write(
            [[StoreStatement(insert, ["first"])], [StoreStatement(insert, ["second"])], large, fitting, [StoreStatement(insert, ["last"])]],
            to: store.pool, path: store.path)
        #expect(outcomes.map { (try? $0.get()) != nil } == [true, true, false, true, true])
        let names = Set(try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM stack") })
        #expect(names == Set(["first", "second", "last"] + (0..<SQLiteStateStore.largeChange + 1).map { "big\($0)" }))
    }

    /// A call alone in its group has no savepoint: failing, none of its statements stay.
    @Test func aFailingCallAloneLeavesNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        let insert = "INSERT INTO stack (name, state) VALUES (?, '{}')"
        let outcomes = try SQLiteStateStore.write(
            [[StoreStatement(insert, ["half"]), StoreStatement("INSERT INTO no_such_table VALUES (1)")]],
            to: store.pool, path: store.path)
        #expect(outcomes.count == 1)
        #expect((try? outcomes[0].get()) == nil)
        let names = try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM stack") }
        #expect(names.isEmpty)
        let alone = try SQLiteStateStore.write([[StoreStatement(insert, ["alone"])]], to: store.pool, path: store.path)
        #expect(alone.map { (try? $0.get()) != nil } == [true])
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
