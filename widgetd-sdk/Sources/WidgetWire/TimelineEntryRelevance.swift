import Foundation

/// How relevant an entry is, relative to this widget's own other entries (WidgetKit's
/// `TimelineEntryRelevance`). A score <= 0 means "not relevant now".
public struct TimelineEntryRelevance: Codable, Hashable, Sendable {
    /// Compared only with the same widget's scores, so the scale is the author's choice.
    public let score: Float

    /// Seconds the score applies from the entry's date; 0 means until the next entry that
    /// carries relevance.
    public let duration: TimeInterval

    public init(score: Float, duration: TimeInterval = 0) {
        self.score = score
        self.duration = duration
    }
}
