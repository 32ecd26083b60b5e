import Foundation

/// The daemon's state file read (or prepared) with the `sqlite3` tool: what a test checks on
/// disk rather than through a request.
enum StateSQL {
    /// Runs `sql` on `database`; sqlite3's output, trimmed. Throws, with sqlite3's message,
    /// when it cannot run or fails.
    @discardableResult
    static func run(_ database: String, _ sql: String, readOnly: Bool = false) throws -> String {
        let result = ProgramRun.run("/usr/bin/sqlite3", (readOnly ? ["-readonly"] : []) + [database, sql], deadline: 60, what: "sqlite3 '\(sql)'")
        guard result.status == 0 else { throw FixtureError("sqlite3 '\(sql)' on \(database) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One string per row.
    static func rows(_ database: String, _ sql: String, readOnly: Bool = true) throws -> [String] {
        try run(database, sql, readOnly: readOnly).split(separator: "\n").map(String.init)
    }
}
