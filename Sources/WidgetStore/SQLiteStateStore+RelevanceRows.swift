import Foundation
import GRDB
import WidgetCore

/// Relevance history as rows (migration v6): one row per settled sample, appended and deleted
/// as reloads settle, expire and outscore samples. Before, every reload re-encoded the whole
/// history as one JSON document and rewrote it.
extension SQLiteStateStore {
    /// A table of relevance samples, one row per instance and date.
    static func createSampleTable(_ db: Database, _ name: String) throws {
        try db.execute(sql: """
            CREATE TABLE \(name) (
                instance TEXT NOT NULL REFERENCES instance(id) ON DELETE CASCADE,
                date DOUBLE NOT NULL,
                score DOUBLE NOT NULL,
                duration DOUBLE NOT NULL,
                PRIMARY KEY (instance, date)
            ) WITHOUT ROWID
            """)
    }

    static func migrateRelevanceToRows(_ db: Database) throws {
        try createSampleTable(db, "relevance_sample")
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
        let deletions: [(String, StatementArguments)] = change.removed.map { date in
            ("DELETE FROM relevance_sample WHERE instance = ? AND date = ?", [id, date.timeIntervalSince1970])
        }
        return deletions + insertStatements("relevance_sample", id, change.added)
    }

    /// The relevance a provider gave since the instance's timeline: its rows replaced.
    static func freshRelevanceStatements(_ id: InstanceID, _ samples: [RelevanceSample]) -> [(String, StatementArguments)] {
        [("DELETE FROM fresh_relevance WHERE instance = ?", [id])] + insertStatements("fresh_relevance", id, samples)
    }

    private static func insertStatements(
        _ table: String, _ id: InstanceID, _ samples: [RelevanceSample]
    ) -> [(String, StatementArguments)] {
        // Rows for an instance removed meanwhile are skipped, not an error: the removal won.
        samples.map { sample in
            // Without clues the column is left out, as the v6 migration (older than it) writes.
            guard let clues = cluesText(sample.when) else {
                return (
                    """
                    INSERT OR REPLACE INTO \(table) (instance, date, score, duration)
                    SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM instance WHERE id = ?)
                    """,
                    [id, sample.date.timeIntervalSince1970, sample.score, sample.duration, id]
                )
            }
            return (
                """
                INSERT OR REPLACE INTO \(table) (instance, date, score, duration, clues)
                SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM instance WHERE id = ?)
                """,
                [id, sample.date.timeIntervalSince1970, sample.score, sample.duration, clues, id]
            )
        }
    }

    static func loadFreshRelevance(_ db: Database, quarantine: inout Quarantine) throws -> [InstanceID: [RelevanceSample]] {
        try loadSamples(db, "fresh_relevance", quarantine: &quarantine)
    }

    static func loadSettledRelevance(_ db: Database, quarantine: inout Quarantine) throws -> [InstanceID: [RelevanceSample]] {
        try loadSamples(db, "relevance_sample", quarantine: &quarantine)
    }

    private static func loadSamples(
        _ db: Database, _ table: String, quarantine: inout Quarantine
    ) throws -> [InstanceID: [RelevanceSample]] {
        var settled: [InstanceID: [RelevanceSample]] = [:]
        let rows = try ColumnReader(
            db, sql: "SELECT instance, date, score, duration, quote(date), clues FROM \(table) ORDER BY instance, date")
        while try rows.next() {
            let when = rows.isNull(5) ? .some(nil) : try? rows.withText(5) { try clues($0) }
            guard let date = rows.date(1), let score = rows.finite(2), let duration = rows.finite(3), let when else {
                quarantine.row(
                    table, key: "instance = \(Quarantine.sqlText(rows.string(0))) AND date = \(rows.string(4))",
                    reason: "date, score or duration is not a number (dates within years 1 to 9999), or clues do not decode",
                    advice: "left out of the instance's relevance; it expires with the relevance window, or delete it")
                continue
            }
            settled[rows.string(0), default: []].append(
                RelevanceSample(date: Date(timeIntervalSince1970: date), score: score, duration: duration, when: when))
        }
        return settled
    }
}
