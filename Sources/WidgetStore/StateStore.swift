import Foundation
import WidgetCore

/// Durable state. Every submission is one transaction: when its completion reports success,
/// the changes are committed (and synced); when it reports an error, none of them are.
/// Submissions are committed, and completed, in the order they were made.
public protocol StateStore: Sendable {
    func load() async throws -> PersistedState
    /// Stores `changes`; `completion` runs once, on a thread of the store's, after the commit.
    func submit(_ changes: [StoreChange], completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
    /// Several submissions at once, in order: a store that commits in groups puts them in the
    /// same one.
    func submit(batch: [(changes: [StoreChange], completion: @Sendable (Result<Void, any Error>) -> Void)])
    /// Logged rotation decisions, oldest first: the newest `limit` of those matching.
    func decisions(stack: String?, since: Date?, limit: Int) async throws -> [RotationDecision]
    /// Rows read since start-up that did not decode and were left out (log rows), each
    /// handed out once.
    func takeSkippedRows() -> [QuarantinedRow]
}

extension StateStore {
    public func takeSkippedRows() -> [QuarantinedRow] { [] }

    public func submit(batch: [(changes: [StoreChange], completion: @Sendable (Result<Void, any Error>) -> Void)]) {
        for item in batch { submit(item.changes, completion: item.completion) }
    }

    /// `submit`, awaited.
    public func apply(_ changes: [StoreChange]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            submit(changes) { continuation.resume(with: $0) }
        }
    }
}

/// The state could not be opened or written; the message says what and where.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// Why: decides widgetd's exit status when the state cannot be opened at start-up.
    public var kind: StorageFaultKind
    /// A short name of the cause ("ENOSPC", "EROFS", "SQLITE_IOERR_FSYNC", ...), so that a
    /// fault is logged once however its messages vary; nil when there is no better one
    /// than the description.
    public var cause: String?
    public init(_ description: String, kind: StorageFaultKind = .other, cause: String? = nil) {
        self.description = description
        self.kind = kind
        self.cause = cause
    }
}
