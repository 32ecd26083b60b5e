import Foundation
import GRDB
import GRDBSQLite

/// What kind of storage trouble an error is, for the exit status at start-up and for the
/// message a refused write gets. "SQLite error 13" says little to an operator; "no space left
/// on the device holding /var/lib/widgetd (ENOSPC)" says what to do.
public enum StorageFaultKind: String, Sendable {
    /// The state directory or its file system cannot be written: read-only, no permission,
    /// no space, an I/O error. A restart does not help until the operator acts (or space is freed).
    case notWritable
    /// The database file is not a database, or is damaged.
    case corrupt
    /// Anything else (a bug, a schema from a newer widgetd, ...).
    case other
}

extension StoreError {
    /// A GRDB/SQLite error described with its cause named. `systemErrno` is what
    /// `sqlite3_system_errno` reported on the connection that failed (0: unknown).
    static func describing(_ error: any Error, path: String, systemErrno: Int32 = 0) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else { return StoreError("\(error)", kind: .other) }
        let code = error.resultCode
        let sqlite = "SQLite: \(error.message ?? "\(error.extendedResultCode)")"
        let errnoText = systemErrno == 0 ? nil : Self.errnoName(systemErrno)
        switch code {
        case .SQLITE_FULL:
            let cause = errnoText ?? "ENOSPC, no space left on device"
            return StoreError("the file system holding \(path) is full (\(cause); \(sqlite))", kind: .notWritable, cause: "full")
        case .SQLITE_READONLY:
            return StoreError(
                "\(path) is read-only (\(errnoText.map { $0 + "; " } ?? "")\(sqlite))", kind: .notWritable, cause: "read-only")
        case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_PERM:
            // A full file system often shows as an I/O error (growing the -shm file fails
            // before any write does): say so when it is.
            if Self.isFull(directoryOf: path) {
                return StoreError(
                    "the file system holding \(path) is full (no free blocks; \(errnoText.map { $0 + "; " } ?? "")\(sqlite), \(Self.ioErrorName(error.extendedResultCode)))",
                    kind: .notWritable, cause: "full")
            }
            // EROFS and EACCES show up as I/O errors when the file was open before the change.
            let cause = errnoText ?? Self.ioErrorName(error.extendedResultCode)
            return StoreError(
                "cannot write \(path): I/O error (\(cause); \(sqlite))", kind: .notWritable,
                cause: "I/O error " + (systemErrno == 0 ? Self.ioErrorName(error.extendedResultCode) : "\(systemErrno)"))
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StoreError("\(path) is damaged or not a database (\(sqlite))", kind: .corrupt, cause: "damaged")
        default:
            return StoreError("\(sqlite) (\(path))", kind: .other)
        }
    }

    /// True when the file system holding `path`'s folder has no block left for widgetd.
    static func isFull(directoryOf path: String) -> Bool {
        var info = statvfs()
        let directory = (path as NSString).deletingLastPathComponent
        return statvfs(directory, &info) == 0 && info.f_bavail == 0
    }

    /// SQLite's extended I/O error codes that storage faults produce, by name.
    static func ioErrorName(_ code: ResultCode) -> String {
        let names: [Int32: String] = [
            266: "SQLITE_IOERR_READ", 522: "SQLITE_IOERR_SHORT_READ", 778: "SQLITE_IOERR_WRITE",
            1034: "SQLITE_IOERR_FSYNC", 1290: "SQLITE_IOERR_DIR_FSYNC", 1546: "SQLITE_IOERR_TRUNCATE",
            1802: "SQLITE_IOERR_FSTAT", 3850: "SQLITE_IOERR_LOCK", 4618: "SQLITE_IOERR_SHMOPEN",
            4874: "SQLITE_IOERR_SHMSIZE", 5386: "SQLITE_IOERR_SHMMAP", 6410: "SQLITE_IOERR_GETTEMPPATH",
        ]
        return names[code.rawValue] ?? "SQLite result code \(code.rawValue)"
    }

    /// "EROFS, Read-only file system".
    static func errnoName(_ value: Int32) -> String {
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM", EIO: "EIO",
            ENOENT: "ENOENT", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", ENOMEM: "ENOMEM", EBADF: "EBADF",
        ]
        return "\(names[value] ?? "errno \(value)"), \(String(cString: strerror(value)))"
    }
}

extension Database {
    /// The errno of the last failed system call SQLite made on this connection.
    var lastSystemErrno: Int32 {
        sqliteConnection.map { sqlite3_system_errno($0) } ?? 0
    }
}
