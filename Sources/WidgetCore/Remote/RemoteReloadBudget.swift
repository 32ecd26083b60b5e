import Foundation

/// The remote reload budget: at most `limit` remote reloads per target (a kind, or `*` for
/// all) in any rolling day, apart from the instances' own budget, which every applied reload
/// then goes through as well. A reload over the limit is deferred, never dropped: one
/// deferral per target, since a second "content changed" for a kind already waiting adds
/// nothing a single reload would not fetch. Codable: the daemon keeps it on disk, so a
/// deferral survives a restart.
public struct RemoteReloadBudget: Sendable, Hashable, Codable {
    public static let window: TimeInterval = 24 * 3600

    public var limit: Int
    /// When each target's remote reloads were applied, oldest first, within the window.
    public private(set) var applied: [String: [Date]] = [:]
    /// Targets waiting for room, and when the window gives them room.
    public private(set) var deferred: [String: Date] = [:]

    public init(limit: Int) {
        self.limit = limit
    }

    public enum Decision: Sendable, Hashable {
        case apply
        case deferred(until: Date)
    }

    /// Takes a remote reload of `target` at `now`: applied (and counted) when the window has
    /// room and nothing of the target waits already, else deferred.
    public mutating func admit(_ target: String, at now: Date) -> Decision {
        prune(target, at: now)
        if let waiting = deferred[target] { return .deferred(until: waiting) }
        if applied[target, default: []].count < limit {
            applied[target, default: []].append(now)
            return .apply
        }
        let until = room(for: target)
        deferred[target] = until
        return .deferred(until: until)
    }

    /// The deferred targets the window has room for at `now`, counted as applied now. Those
    /// still without room get their new time.
    public mutating func release(at now: Date) -> [String] {
        var released: [String] = []
        for (target, until) in deferred.sorted(by: { $0.key < $1.key }) where until <= now {
            prune(target, at: now)
            if applied[target, default: []].count < limit {
                applied[target, default: []].append(now)
                deferred[target] = nil
                released.append(target)
            } else {
                deferred[target] = room(for: target)
            }
        }
        return released
    }

    /// When the next deferred target may run; nil when none waits.
    public var nextRelease: Date? { deferred.values.min() }

    /// A lowered limit applies from now on; a raised one lets deferred targets run sooner.
    public mutating func setLimit(_ limit: Int) {
        self.limit = limit
        for target in deferred.keys { deferred[target] = room(for: target) }
    }

    /// Drops uses that left the window, and targets with none left.
    private mutating func prune(_ target: String, at now: Date) {
        guard var times = applied[target] else { return }
        times.removeAll { $0 <= now.addingTimeInterval(-Self.window) }
        applied[target] = times.isEmpty ? nil : times
    }

    /// When the window next has room for `target`: once enough of its uses have aged out.
    private func room(for target: String) -> Date {
        let times = applied[target, default: []]
        guard times.count >= limit, limit > 0 else { return times.last ?? .distantPast }
        return times[times.count - limit].addingTimeInterval(Self.window)
    }
}
