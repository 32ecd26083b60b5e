import Foundation

/// One relevance-carrying entry: its score applies from `date` for `duration` seconds
/// (0: until the next relevance-carrying entry becomes current).
public struct RelevanceSample: Sendable, Hashable, Codable {
    public var date: Date
    public var score: Double
    public var duration: TimeInterval

    public init(date: Date, score: Double, duration: TimeInterval) {
        self.date = date
        self.score = score
        self.duration = duration
    }
}

/// An instance's relevance now: the score in force and the window it holds for.
public struct CurrentRelevance: Sendable, Hashable, Codable {
    public var score: Double
    /// The entry date the score comes from.
    public var since: Date
    /// When it lapses (duration > 0), else nil: until the next relevance.
    public var until: Date?
}

/// The relevance scores of one instance over time (semantics.md, Relevance): samples of its
/// past timelines that became current, plus every sample of its current timeline. Pure.
public struct RelevanceHistory: Sendable, Hashable, Codable {
    public private(set) var samples: [RelevanceSample] = []

    public init(samples: [RelevanceSample] = []) {
        self.samples = samples.sorted { $0.date < $1.date }
    }

    /// A new timeline arrived at `now`. The old samples that never became current (dated after
    /// `now`) are forgotten; when the new timeline already covers `now` (its first entry is
    /// dated at or before it), it supersedes the old one from that first entry on. Otherwise the
    /// score in force goes on until the new entries begin. The new samples are added.
    public mutating func install(_ timeline: Timeline, at now: Date) {
        let supersededFrom = timeline.entries.first.map(\.date).flatMap { $0 <= now ? $0 : nil }
        samples.removeAll { sample in
            sample.date > now || (supersededFrom.map { sample.date >= $0 } ?? false)
        }
        let fresh = timeline.entries.compactMap { entry in
            entry.relevance.map { RelevanceSample(date: entry.date, score: $0.score, duration: $0.duration) }
        }
        // Within the new timeline, an entry already current at `now` replaces older samples at
        // the same date; later ones simply follow.
        samples.removeAll { sample in fresh.contains { $0.date == sample.date } }
        samples.append(contentsOf: fresh)
        samples.sort { $0.date < $1.date }
    }

    /// Drops samples older than `retention` before `now`, keeping the newest one at or before
    /// `now` (it may still be in force: a score with duration 0 holds until the next).
    public mutating func prune(before cutoff: Date, now: Date) {
        let inForce = samples.last { $0.date <= now }
        samples.removeAll { $0.date < cutoff && $0 != inForce }
    }

    /// The score in force at `now`: the latest sample dated at or before `now`, unless its
    /// duration has run out. An entry without relevance changes nothing, so it is not a sample.
    public func current(at now: Date) -> CurrentRelevance? {
        guard let sample = samples.last(where: { $0.date <= now }) else { return nil }
        if sample.duration > 0 {
            let end = sample.date.addingTimeInterval(sample.duration)
            guard now < end else { return nil }
            return CurrentRelevance(score: sample.score, since: sample.date, until: end)
        }
        return CurrentRelevance(score: sample.score, since: sample.date, until: nil)
    }

    /// The score relative to this instance's own positive scores in the window (its best is 1):
    /// multiplying all of one instance's scores by a positive constant changes nothing.
    /// 0 when there is no score in force or it is <= 0.
    public func relative(at now: Date, window: TimeInterval) -> Double {
        guard let current = current(at: now), current.score > 0 else { return 0 }
        let start = now.addingTimeInterval(-window)
        let best = samples.filter { $0.date >= start || $0.date == current.since }.map(\.score).max() ?? current.score
        return best > 0 ? min(1, current.score / best) : 0
    }

    /// The next instant after `now` at which `current(at:)` may change: a lapse or the next
    /// sample. (Entry changes of the timeline are scheduled anyway; lapses are not.)
    public func nextChange(after now: Date) -> Date? {
        var candidates: [Date] = []
        if let current = current(at: now), let until = current.until { candidates.append(until) }
        if let next = samples.first(where: { $0.date > now }) { candidates.append(next.date) }
        return candidates.min()
    }
}
