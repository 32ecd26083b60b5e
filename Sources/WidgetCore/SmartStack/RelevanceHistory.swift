import Foundation

/// One relevance-carrying entry: its score applies from `date` for `duration` seconds
/// (0: until the next relevance-carrying entry becomes current).
public struct RelevanceSample: Sendable, Hashable, Codable {
    public var date: Date
    public var score: Double
    public var duration: TimeInterval
    /// The clues under which the score applies (`EntryRelevance.when`); nil: always.
    public var when: [ClueAlternative]?

    public init(date: Date, score: Double, duration: TimeInterval, when: [ClueAlternative]? = nil) {
        self.date = date
        self.score = score
        self.duration = duration
        self.when = when
    }
}

/// An instance's relevance now: the score in force and the window it holds for.
public struct CurrentRelevance: Sendable, Hashable, Codable {
    public var score: Double
    /// The entry date the score comes from.
    public var since: Date
    /// When it lapses (duration > 0), else nil: until the next relevance.
    public var until: Date?
    /// The clues under which the score applies; nil: always.
    public var when: [ClueAlternative]? = nil
}

/// The relevance scores of one instance over time (docs/smart-stacks.md). Pure.
///
/// Ranking needs two things of the past: the score in force (the newest sample at or before
/// now) and the instance's best score in the window, for relative relevance. So the history
/// is held in two parts:
/// - `timeline`: every sample of the current timeline. A new timeline may still supersede
///   them, so they are kept as they are (they are the timeline's own entries anyway).
/// - `settled`: what is left of earlier timelines, which nothing rewrites any more. Of these
///   only the samples that can still be the best of some window are kept: each one scores
///   higher than every later settled sample. A sample outscored (or equalled) by a later one
///   can never be the best again, since the later one stays in every window it is in. The
///   newest settled sample is always kept, because it may still be in force.
///
/// So memory follows how often an instance's best score falls, not how many reloads it had:
/// scores that rise and fall over a day leave a handful of settled samples per window.
public struct RelevanceHistory: Sendable, Hashable {
    /// Earlier timelines' samples that can still be a window's best, in date order with
    /// strictly falling scores. All are dated before the current timeline's samples.
    public private(set) var settled: [RelevanceSample] = []
    /// The current timeline's samples, in date order.
    public private(set) var timeline: [RelevanceSample] = []

    /// A history whose samples all belong to the current timeline (nothing settled yet).
    public init(samples: [RelevanceSample] = []) {
        timeline = samples.sorted { $0.date < $1.date }
    }

    /// A history restored from what a store keeps: the settled samples and the current
    /// timeline (whose relevance-carrying entries are its samples), or the fresh relevance a
    /// provider gave for it since (`install(fresh:at:)`).
    public init(settled: [RelevanceSample], timeline: WidgetTimeline?, fresh: [RelevanceSample]? = nil) {
        for sample in settled.sorted(by: { $0.date < $1.date }) { settle(sample) }
        self.timeline = fresh?.sorted { $0.date < $1.date } ?? timeline.map(Self.samples(of:)) ?? []
    }

    /// Every sample held, in date order.
    public var samples: [RelevanceSample] { settled + timeline }

    public var isEmpty: Bool { settled.isEmpty && timeline.isEmpty }

    /// The kinds of clue the samples that can be in force name: the current timeline's, and
    /// the newest settled one (older settled samples only count as a window's best, which
    /// clues do not change).
    public var clueKinds: Set<ClueKind> {
        var kinds = settled.last?.when?.clueKinds ?? []
        for sample in timeline where sample.when != nil { kinds.formUnion(sample.when!.clueKinds) }
        return kinds
    }

    /// A new timeline arrived at `now`. The old samples that never became current (dated after
    /// `now`) are forgotten; when the new timeline already covers `now` (its first entry is
    /// dated at or before it), it supersedes the old one from that first entry on. Otherwise the
    /// score in force goes on until the new entries begin. What is left of the old timeline
    /// settles, and the new samples become the current timeline.
    public mutating func install(_ timeline: WidgetTimeline, at now: Date) {
        let first = timeline.entries.isEmpty ? nil : timeline.entries.date(at: 0)
        install(Self.samples(of: timeline), first: first, at: now)
    }

    /// Fresh relevance a provider gave at `now` for the content shown (its `relevance` verb,
    /// asked by `invalidateRelevance`): it takes the place of the current timeline's samples as
    /// a new timeline's would, from its first date on, and leaves the content alone.
    public mutating func install(fresh samples: [RelevanceSample], at now: Date) {
        let sorted = samples.sorted { $0.date < $1.date }
        install(sorted, first: sorted.first?.date, at: now)
    }

    private mutating func install(_ samples: [RelevanceSample], first: Date?, at now: Date) {
        let supersededFrom = first.flatMap { $0 <= now ? $0 : nil }
        let gone = { (sample: RelevanceSample) in
            sample.date > now || (supersededFrom.map { sample.date >= $0 } ?? false)
        }
        // Only a timeline that starts before the current one's samples reaches the settled
        // ones; it removes those it supersedes, as before. (A lower score that one of them had
        // outscored is not brought back: it was already forgotten.)
        settled.removeAll(where: gone)
        for sample in self.timeline where !gone(sample) { settle(sample) }
        // Every surviving old sample is dated before the new timeline's entries (see `gone`),
        // so the new samples follow them without replacing any.
        self.timeline = samples
    }

    /// Drops samples older than `cutoff`, keeping the newest one at or before `now` (it may
    /// still be in force: a score with duration 0 holds until the next).
    public mutating func prune(before cutoff: Date, now: Date) {
        let inForce = newest(atOrBefore: now)
        settled.removeAll { $0.date < cutoff && $0 != inForce }
        timeline.removeAll { $0.date < cutoff && $0 != inForce }
    }

    /// The score in force at `now`: the latest sample dated at or before `now`, unless its
    /// duration has run out. An entry without relevance changes nothing, so it is not a sample.
    public func current(at now: Date) -> CurrentRelevance? {
        guard let sample = newest(atOrBefore: now) else { return nil }
        if sample.duration > 0 {
            let end = sample.date.addingTimeInterval(sample.duration)
            guard now < end else { return nil }
            return CurrentRelevance(score: sample.score, since: sample.date, until: end, when: sample.when)
        }
        return CurrentRelevance(score: sample.score, since: sample.date, until: nil, when: sample.when)
    }

    /// The score relative to this instance's own scores in the window (its best is 1):
    /// multiplying all of one instance's scores by a positive constant changes nothing.
    /// 0 when there is no score in force or it is <= 0. The window is the `window` seconds
    /// before now, now included: a score dated `window` ago has just left it.
    public func relative(at now: Date, window: TimeInterval) -> Double {
        guard let current = current(at: now), current.score > 0 else { return 0 }
        let start = now.addingTimeInterval(-window)
        // The score in force counts even when its date has left the window.
        var best = current.score
        for sample in settled where sample.date > start || sample.date == current.since { best = max(best, sample.score) }
        for sample in timeline where sample.date > start || sample.date == current.since { best = max(best, sample.score) }
        return best > 0 ? min(1, current.score / best) : 0
    }

    /// The next instant after `now` at which `current(at:)` or `relative(at:window:)` may
    /// change: a lapse, the next sample, or a higher score than the one in force leaving the
    /// window (the instance's best falls, so its relative relevance rises). Entry changes of
    /// the timeline are scheduled anyway; these are not.
    public func nextChange(after now: Date, window: TimeInterval = .infinity) -> Date? {
        // Kept as the earliest so far rather than collected: every stack evaluation asks this
        // of each of its instances.
        var earliest: Date?
        func consider(_ date: Date) {
            if earliest.map({ date < $0 }) ?? true { earliest = date }
        }
        let current = current(at: now)
        if let until = current?.until { consider(until) }
        if let next = settled.first(where: { $0.date > now }) ?? timeline.first(where: { $0.date > now }) {
            consider(next.date)
        }
        if let current, current.score > 0, window.isFinite {
            let start = now.addingTimeInterval(-window)
            // Samples are in date order: the first higher score in the window leaves it first.
            let higher = { (sample: RelevanceSample) in sample.date > start && sample.date <= now && sample.score > current.score }
            var leaving = settled.first(where: higher)?.date.addingTimeInterval(window)
            if let date = timeline.first(where: higher)?.date.addingTimeInterval(window), leaving.map({ date < $0 }) ?? true {
                leaving = date
            }
            if let leaving, leaving > now { consider(leaving) }
        }
        return earliest
    }

    private func newest(atOrBefore now: Date) -> RelevanceSample? {
        Self.last(in: timeline, atOrBefore: now) ?? Self.last(in: settled, atOrBefore: now)
    }

    /// The last of `samples` (in date order) dated at or before `now`, by bisection: every
    /// ranking asks it of every candidate, and a scan from the end walks most of a day's samples.
    private static func last(in samples: [RelevanceSample], atOrBefore now: Date) -> RelevanceSample? {
        var low = 0
        var high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].date <= now { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? samples[low - 1] : nil
    }

    /// Appends a sample dated after every settled one, dropping those it outscores or equals.
    private mutating func settle(_ sample: RelevanceSample) {
        while let last = settled.last, last.score <= sample.score || last.date >= sample.date { settled.removeLast() }
        settled.append(sample)
    }

    private static func samples(of timeline: WidgetTimeline) -> [RelevanceSample] {
        let entries = timeline.entries
        return entries.indices.compactMap { index in
            entries.relevance(at: index).map {
                RelevanceSample(date: entries.date(at: index), score: $0.score, duration: $0.duration, when: $0.when)
            }
        }
    }
}
