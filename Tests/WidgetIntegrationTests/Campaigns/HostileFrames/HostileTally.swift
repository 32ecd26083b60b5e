import Foundation

/// What a hostile campaign counted, summed over connections.
struct HostileTally {
    var framesSent = 0
    /// Frames that must get no answer (notifications, blank lines).
    var silent = 0
    /// Frames sent on connections dropped without reading (their answers are not checked).
    var abandoned = 0
    var answers = 0
    var events = 0
    var connections = 0
    var errorsByCode: [Int: Int] = [:]
    var byCategory: [String: Int] = [:]
    var failures: [String] = []

    mutating func fail(_ text: String) {
        if failures.count < 50 { failures.append(text) }
    }

    mutating func merge(_ other: HostileTally) {
        framesSent += other.framesSent
        silent += other.silent
        abandoned += other.abandoned
        answers += other.answers
        events += other.events
        connections += other.connections
        errorsByCode.merge(other.errorsByCode, uniquingKeysWith: +)
        byCategory.merge(other.byCategory, uniquingKeysWith: +)
        for failure in other.failures { fail(failure) }
    }

    var codesText: String {
        errorsByCode.sorted { $0.key > $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}

/// A thread-safe box for a lane's running total.
final class LockedTally: @unchecked Sendable {
    private let lock = NSLock()
    private var tally = HostileTally()

    func merge(_ other: HostileTally) { lock.withLock { tally.merge(other) } }
    var value: HostileTally { lock.withLock { tally } }
}
