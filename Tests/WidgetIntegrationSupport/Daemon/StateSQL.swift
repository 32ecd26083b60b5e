import Foundation

/// The daemon's state file read (or prepared) with the `sqlite3` tool: what a test checks on
/// disk rather than through a request.
enum StateSQL {
    /// Runs `sql` on `database`; sqlite3's output, trimmed. Throws, with sqlite3's message,
    /// when it cannot run or fails.
    @discardableResult
    static func run(_ database: String, _ sql: String, readOnly: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = (readOnly ? ["-readonly"] : []) + [database, sql]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let overdue = process.deadline(60, "sqlite3 '\(sql)'")
        defer { overdue.end() }
        // sqlite3's messages are short: stdout is read to its end first without risk.
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("sqlite3 '\(sql)' on \(database) failed: \(message)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One string per row.
    static func rows(_ database: String, _ sql: String, readOnly: Bool = true) throws -> [String] {
        try run(database, sql, readOnly: readOnly).split(separator: "\n").map(String.init)
    }
}
