import Foundation

/// `TimelineEntryRelevance`: a score relative to the same widget's other scores, and how long
/// it applies (0 = until the next entry that carries relevance).
public struct EntryRelevance: Codable, Sendable, Hashable {
    public var score: Double
    public var duration: TimeInterval

    public init(score: Double, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        score = try container.decode(Double.self, forKey: .score)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        guard score.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .score, in: container, debugDescription: "score must be finite")
        }
        guard duration.isFinite, duration >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container, debugDescription: "duration must be a number of seconds >= 0")
        }
    }
}
