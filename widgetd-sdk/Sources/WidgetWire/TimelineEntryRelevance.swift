import Foundation

/// How relevant an entry is, relative to this widget's own other entries (WidgetKit's
/// `TimelineEntryRelevance`). A score <= 0 means "not relevant now". With `contexts` (context
/// clues, RelevanceKit's), the score applies only while one of them holds.
public struct TimelineEntryRelevance: Codable, Hashable, Sendable {
    /// Compared only with the same widget's scores, so the scale is the author's choice.
    public let score: Float

    /// Seconds the score applies from the entry's date; 0 means until the next entry that
    /// carries relevance.
    public let duration: TimeInterval

    /// Alternatives, any of which makes the score apply (`relevance.when`); nil: always. The
    /// kind's descriptor declares the clues they name (`"clues": [...]`).
    public let contexts: [RelevantContext]?

    public init(score: Float, duration: TimeInterval = 0) {
        self.init(score: score, duration: duration, contexts: nil)
    }

    /// Relevant with `score` while one of `contexts` holds (nil: always).
    public init(score: Float, duration: TimeInterval = 0, contexts: [RelevantContext]?) {
        self.score = score
        self.duration = duration
        self.contexts = contexts
    }

    /// Relevant, with score 1, while one of `contexts` holds: an entry that carries only clues.
    public init(contexts: [RelevantContext], duration: TimeInterval = 0) {
        self.init(score: 1, duration: duration, contexts: contexts)
    }

    private enum CodingKeys: String, CodingKey { case score, duration, contexts = "when" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contexts = try container.decodeIfPresent([RelevantContext].self, forKey: .contexts)
        score = try container.decodeIfPresent(Float.self, forKey: .score) ?? 1
        duration = try container.decodeIfPresent(TimeInterval.self, forKey: .duration) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(score, forKey: .score)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(contexts, forKey: .contexts)
    }
}
