import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Migration v7: the reload history is pruned by date through an index, not a table scan.
@Suite struct ReloadDateIndexTests {
    let directory = temporaryDirectory("wrd")


    @Test func aVersion5DatabaseGainsTheIndexAndKeepsItsHistory() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let pool = try DatabasePool(path: directory + "/state.sqlite")
            try SQLiteStateStore.migrator.migrate(pool, upTo: "v5-entry-rows")
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO instance (id, kind, family, configuration, created) VALUES ('a', 'k', 'systemSmall', '{}', 0)")
                for offset in [-90_000.0, -60, 0] {
                    try db.execute(
                        sql: "INSERT INTO reload (instance, date, reason, budgeted) VALUES ('a', ?, 'policy', 1)",
                        arguments: [t0.timeIntervalSince1970 + offset])
                }
            }
        }
        let store = try SQLiteStateStore(directory: directory)
        let plan = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN DELETE FROM reload WHERE date < ?", arguments: [0])
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("INDEX reload_date"), "\(plan)")
        #expect(try await store.load().budgetedReloads["a"]?.count == 3)

        // Pruning still removes exactly what is older than the window.
        try await store.apply([.pruneReloads(before: t0.addingTimeInterval(-ReloadBudget.window))])
        #expect(try await store.load().budgetedReloads["a"] == [t0 - 60, t0])
    }
}
