import Foundation

/// What one launch writes to the log about failures, one line per cause and not one per
/// instance (a launch may serve many instances):
/// - warning `provider failed; previous timeline kept`: the first failure of a cause, in full;
/// - debug `provider failed again with the same cause`: a repeat, counted in `repeats`;
/// - notice `provider kept failing with the same cause`: the repeats of a cause that a
///   different failure ends, once, with their count;
/// - info `provider recovered`: the first success after failures, once, with their count.
public struct FailureReport: Sendable {
    private struct Group: Hashable, Comparable {
        var message: String
        var count: Int

        static func < (lhs: Group, rhs: Group) -> Bool { (lhs.message, lhs.count) < (rhs.message, rhs.count) }
    }

    private var new: [String: [InstanceID]] = [:]
    private var repeats: [Group: [InstanceID]] = [:]
    private var ended: [Group: [InstanceID]] = [:]
    private var recoveries: [Group: [InstanceID]] = [:]
    /// Every failure of the launch by its text, reported or not (subscribers see them all).
    private var all: [String: [InstanceID]] = [:]

    public init() {}

    /// Each failure text with its instances, in text order.
    public var failures: [(String, [InstanceID])] { all.sorted { $0.key < $1.key } }

    public mutating func add(_ id: InstanceID, _ message: String, verdict: FailureStreak.Verdict) {
        all[message, default: []].append(id)
        switch verdict {
        case .report(let previous):
            if let previous { ended[Group(message: previous.message, count: previous.repeats), default: []].append(id) }
            new[message, default: []].append(id)
        case .repeated(let times):
            repeats[Group(message: message, count: times), default: []].append(id)
        }
    }

    public mutating func recovered(_ id: InstanceID, after streak: FailureStreak) {
        recoveries[Group(message: streak.message, count: streak.repeats + 1), default: []].append(id)
    }

    /// The lines, in the order above.
    public func notes(kind: String) -> [Note] {
        @Sendable func ids(_ list: [InstanceID]) -> String { list.joined(separator: ",") }
        var notes: [Note] = []
        for (group, list) in ended.sorted(by: { $0.key < $1.key }) {
            notes.append(Note(
                level: .notice, message: "provider kept failing with the same cause",
                metadata: ["kind": kind, "instances": ids(list), "error": group.message, "repeats": "\(group.count)"]))
        }
        for (message, list) in new.sorted(by: { $0.key < $1.key }) {
            notes.append(Note(
                level: .warning, message: "provider failed; previous timeline kept",
                metadata: ["kind": kind, "instances": ids(list), "error": message]))
        }
        for (group, list) in repeats.sorted(by: { $0.key < $1.key }) {
            notes.append(Note(
                level: .debug, message: "provider failed again with the same cause",
                metadata: ["kind": kind, "instances": ids(list), "error": group.message, "repeats": "\(group.count)"]))
        }
        for (group, list) in recoveries.sorted(by: { $0.key < $1.key }) {
            notes.append(Note(
                level: .info, message: "provider recovered",
                metadata: ["kind": kind, "instances": ids(list), "failures": "\(group.count)", "error": group.message]))
        }
        return notes
    }
}
