/// `relevance {score, duration}` of an entry (duration 0: until the next relevance), and its
/// context clue: with `room`, `when: [{"context": {"room": ROOM}}]`, the score counts only
/// while a host has set that room (docs/clues.md).
struct ModelRelevanceValue: Equatable, Sendable {
    var score: Double
    var duration: Seconds
    var room: String? = nil
}

struct ModelEntry: Equatable, Sendable {
    var date: Seconds
    /// The content's one string (`{"v": ...}`), which names where it came from.
    var content: String
    var relevance: ModelRelevanceValue?

    var json: [String: Any] {
        var object: [String: Any] = ["date": ModelTime.iso(date), "content": ["v": content]]
        if let relevance {
            var value: [String: Any] = ["score": relevance.score, "duration": relevance.duration]
            if let room = relevance.room { value["when"] = [["context": ["room": room]]] }
            object["relevance"] = value
        }
        return object
    }
}

enum ModelPolicy: Equatable, Sendable {
    case atEnd
    case after(Seconds)
    case never

    var json: Any {
        switch self {
        case .atEnd: "atEnd"
        case .never: "never"
        case .after(let date): ["after": ModelTime.iso(date)]
        }
    }
}

/// A timeline as the rules read it (docs/overview.md).
struct ModelTimeline: Equatable, Sendable {
    private(set) var entries: [ModelEntry]
    var policy: ModelPolicy

    /// Entries are sorted on arrival; of equal dates the later entry in the input wins.
    init(arriving given: [ModelEntry], policy: ModelPolicy) {
        var sorted: [ModelEntry] = []
        for entry in given {
            // After every entry dated at or before it: stable, and a later equal date replaces.
            if let same = sorted.firstIndex(where: { $0.date == entry.date }) {
                sorted[same] = entry
            } else {
                let index = sorted.firstIndex(where: { $0.date > entry.date }) ?? sorted.count
                sorted.insert(entry, at: index)
            }
        }
        entries = sorted
        self.policy = policy
    }

    /// The entry with the latest date at or before `now`; the first when all are later.
    func current(at now: Seconds) -> ModelEntry? {
        entries.last(where: { $0.date <= now }) ?? entries.first
    }

    /// When the policy wants new data: the last entry's date for atEnd (an empty timeline
    /// at once), the date for after, nothing for never.
    func policyDate(receivedAt now: Seconds) -> Seconds? {
        switch policy {
        case .atEnd: entries.last?.date ?? now
        case .after(let date): date
        case .never: nil
        }
    }
}

/// One relevance-carrying entry of a timeline, past or current.
struct ModelSample: Equatable, Sendable {
    var date: Seconds
    var score: Double
    var duration: Seconds
    /// The room its clue names; nil: it always counts.
    var room: String? = nil
}

/// An instance's relevance over time (docs/smart-stacks.md): the current timeline's scores,
/// and what is left of earlier timelines.
struct ModelRelevance: Equatable, Sendable {
    /// Earlier timelines' scores that can still be the best of a window: each scores higher
    /// than every later one.
    private(set) var past: [ModelSample] = []
    /// The current timeline's scores.
    private(set) var current: [ModelSample] = []

    var all: [ModelSample] { past + current }

    /// A new timeline arrives at `now`: the old entries that never became current are
    /// forgotten, and when the new one's first entry is already current it supersedes the old
    /// scores from that entry on. The rest of the old timeline becomes past.
    mutating func install(_ timeline: ModelTimeline, at now: Seconds) {
        let supersededFrom = timeline.entries.first.map(\.date).flatMap { $0 <= now ? $0 : nil }
        func gone(_ sample: ModelSample) -> Bool {
            sample.date > now || supersededFrom.map { sample.date >= $0 } ?? false
        }
        past.removeAll(where: gone)
        for sample in current where !gone(sample) {
            // A score outscored or equalled later can never be the best of a window again.
            past.removeAll { $0.score <= sample.score }
            past.append(sample)
        }
        current = timeline.entries.compactMap { entry in
            entry.relevance.map { ModelSample(date: entry.date, score: $0.score, duration: $0.duration, room: $0.room) }
        }
    }

    /// The score in force: from the latest relevance-carrying entry at or before `now`, for
    /// its duration (0: until the next one).
    func inForce(at now: Seconds) -> ModelSample? {
        guard let sample = all.last(where: { $0.date <= now }) else { return nil }
        if sample.duration > 0 && now >= sample.date + sample.duration { return nil }
        return sample
    }

    /// The score in force over the instance's best in the window (the score in force counts
    /// even when older); 0 with no score or a score <= 0.
    func relative(at now: Seconds, window: Seconds) -> Double {
        guard let inForce = inForce(at: now), inForce.score > 0 else { return 0 }
        var best = inForce.score
        for sample in all where sample.date > now - window || sample == inForce { best = max(best, sample.score) }
        return min(1, inForce.score / best)
    }

    /// Instants after `now` at which the score in force or the window's best may change: a
    /// score starting or lapsing, or leaving the window.
    /// A score leaves the window when `window` has passed since its date.
    func changes(after now: Seconds, window: Seconds) -> [Seconds] {
        all.flatMap { sample in
            [sample.date, sample.duration > 0 ? sample.date + sample.duration : nil, sample.date + window].compactMap { $0 }
        }
        .filter { $0 > now }
    }
}
