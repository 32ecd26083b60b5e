import Foundation
import GRDB
import WidgetCore

/// Relevance history as rows (migration v6): one row per settled sample, appended and deleted
/// as reloads settle, expire and outscore samples. Before, every reload re-encoded the whole
/// history as one JSON document and rewrote it.
extension SQLiteStateStore {
    static func migrateRelevanceToRows(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE relevance_sample (
                instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
                date DOUBLE NOT NULL,
                score DOUBLE NOT NULL,
                duration DOUBLE NOT NULL,
                PRIMARY KEY (instance, date)
            ) WITHOUT ROWID
            """)
        // The JSON history held the current timeline's samples too; those are its entries now.
        // What came before the timeline's first relevance-carrying entry settles, compacted.
        for row in try Row.fetchAll(db, sql: "SELECT instance, json FROM relevance") {
            let id: String = row["instance"]
            let text: String = row["json"]
            let samples = try WidgetJSON.decoder.decode(JSONHistory.self, from: Data(text.utf8)).samples
            let first = try Double.fetchOne(db, sql: "SELECT MIN(date) FROM entry WHERE instance = ? AND score IS NOT NULL", arguments: [id])
            let earlier = samples.filter { sample in first.map { sample.date.timeIntervalSince1970 < $0 } ?? true }
            let history = RelevanceHistory(settled: earlier, timeline: nil)
            for (sql, arguments) in relevanceStatements(id, RelevanceRowChange(added: history.settled)) {
                try db.execute(sql: sql, arguments: arguments)
            }
        }
        try db.drop(table: "relevance")
    }

    /// The v2 to v5 layout of a relevance history: `{"samples": [...]}`.
    private struct JSONHistory: Decodable {
        var samples: [RelevanceSample]
    }

    static func relevanceStatements(_ id: InstanceID, _ change: RelevanceRowChange) -> [(String, StatementArguments)] {
        var statements: [(String, StatementArguments)] = change.removed.map { date in
            ("DELETE FROM relevance_sample WHERE instance = ? AND date = ?", [id, date.timeIntervalSince1970])
        }
        // Rows for an instance removed meanwhile are skipped, not an error: the removal won.
        for sample in change.added {
            statements.append((
                """
                INSERT OR REPLACE INTO relevance_sample (instance, date, score, duration)
                SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM instance WHERE id = ?)
                """,
                [id, sample.date.timeIntervalSince1970, sample.score, sample.duration, id]
            ))
        }
        return statements
    }

    static func loadSettledRelevance(_ db: Database) throws -> [InstanceID: [RelevanceSample]] {
        var settled: [InstanceID: [RelevanceSample]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT instance, date, score, duration FROM relevance_sample ORDER BY instance, date")
        while let row = try rows.next() {
            settled[row[0], default: []].append(
                RelevanceSample(date: Date(timeIntervalSince1970: row[1]), score: row[2], duration: row[3]))
        }
        return settled
    }
}
