import Foundation

/// `TimelineEntryRelevance`: a score relative to the same widget's other scores, how long it
/// applies (0 = until the next entry that carries relevance), and, with `when`, the context
/// clues under which it applies (docs/clues.md).
public struct EntryRelevance: Codable, Sendable, Hashable {
    public var score: Double
    public var duration: TimeInterval
    /// Alternatives, any of which makes the score apply; nil: it always applies. While none
    /// holds, the entry gives its instance relative relevance 0 (it stays eligible).
    public var when: [ClueAlternative]?

    public init(score: Double, duration: TimeInterval = 0, when: [ClueAlternative]? = nil) {
        self.score = score
        self.duration = duration
        self.when = when
    }

    private enum CodingKeys: String, CodingKey { case score, duration, when }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        when = try container.decodeIfPresent([ClueAlternative].self, forKey: .when)
        // An entry that carries only clues (a relevance configuration's) scores 1.
        score = try when != nil && !container.contains(.score) ? 1 : container.decode(Double.self, forKey: .score)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        guard score.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .score, in: container, debugDescription: "score must be finite")
        }
        guard duration.isFinite, duration >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container, debugDescription: "duration must be a number of seconds >= 0")
        }
        if let when, when.isEmpty || when.count > ClueAlternative.maxAlternatives {
            throw DecodingError.dataCorruptedError(
                forKey: .when, in: container, debugDescription: "expected 1 to \(ClueAlternative.maxAlternatives) alternatives")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(score, forKey: .score)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(when, forKey: .when)
    }
}
