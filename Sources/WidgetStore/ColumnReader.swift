import Foundation
import GRDB
import GRDBSQLite

/// The rows of one query, stepped through SQLite's C interface and read from its column memory:
/// a start-up reads millions of rows, and reading them through GRDB's `Row` makes a Swift
/// value of each column read (a `String` per text: an allocation per entry's content, copied
/// again into its timeline's buffer).
///
/// Text is handed out as the bytes SQLite holds (valid only during the call); a `String` is
/// made only where one is kept.
struct ColumnReader {
    private let statement: Statement
    private var handle: SQLiteStatement { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Moves to the next row; false after the last.
    func next() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                sql: statement.sql)
        }
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    /// The column's text as UTF-8 bytes (empty for NULL).
    func withText<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        // The pointer first, then the length: asking for the text may convert the value.
        let text = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    /// Whether the column's text is exactly `bytes`.
    func text(_ column: Int32, equals bytes: [UInt8]) -> Bool {
        withText(column) { $0.hasBytes(bytes) }
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// Whether the column holds a number (not text, a blob or NULL, which `double` reads as 0).
    func isNumber(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(handle, column)
        return type == SQLITE_FLOAT || type == SQLITE_INTEGER
    }

    /// The column as a date's seconds since 1970, or nil when it is not a number within years
    /// 1 to 9999: a stored date that a date formatter or the calendar could not handle.
    func date(_ column: Int32) -> Double? {
        guard isNumber(column) else { return nil }
        let seconds = sqlite3_column_double(handle, column)
        return StoredDate.range.contains(seconds) ? seconds : nil
    }

    /// The column as a finite number, or nil (text, a blob, NULL, infinity).
    func finite(_ column: Int32) -> Double? {
        guard isNumber(column) else { return nil }
        let value = sqlite3_column_double(handle, column)
        return value.isFinite ? value : nil
    }

    func string(_ column: Int32) -> String {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }
}

/// The dates a stored row may hold.
enum StoredDate {
    /// 0001-01-01T00:00:00Z up to the end of 9999, in seconds since 1970.
    static let range = -62_135_596_800.0..<253_402_300_800.0
}

extension UnsafeRawBufferPointer {
    /// Whether these are exactly `bytes`, compared with `memcmp`.
    func hasBytes(_ bytes: [UInt8]) -> Bool {
        guard count == bytes.count else { return false }
        guard count > 0, let base = baseAddress else { return true }
        return bytes.withUnsafeBytes { memcmp(base, $0.baseAddress!, count) == 0 }
    }
}
