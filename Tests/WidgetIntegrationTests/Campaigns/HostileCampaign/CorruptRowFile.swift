import Foundation

/// The state file as bytes, to tell that a start changed nothing: `state.sqlite` and what its
/// `-wal` holds (a -wal left empty, or no -wal, are alike).
struct CorruptRowFile: Equatable {
    var database: Data
    var wal: Data

    init(_ path: String) throws {
        database = try Data(contentsOf: URL(fileURLWithPath: path))
        wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
    }

    /// What differs, for a failure message.
    func difference(from other: CorruptRowFile) -> String {
        let changed = zip(database, other.database).enumerated().filter { $0.element.0 != $0.element.1 }.count
        return "\(changed) bytes of state.sqlite differ, \(database.count) → \(other.database.count) bytes; -wal \(wal.count) → \(other.wal.count) bytes"
    }
}
