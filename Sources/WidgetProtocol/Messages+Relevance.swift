import Foundation
import WidgetCore

/// `invalidateRelevance(ofKind:)` for one or more kinds.
public struct InvalidateRelevanceParams: Codable, Sendable, Equatable {
    public var kinds: [String]
    public init(kinds: [String]) { self.kinds = kinds }
}

/// What became of each instance of the kinds asked.
public struct InvalidateRelevanceResult: Codable, Sendable, Equatable {
    /// Instances whose providers gave fresh relevance, now ranked with it.
    public var updated: [InstanceID]
    /// Instances not asked: their providers were asked `relevance-per-hour` times in the last hour.
    public var limited: [InstanceID]
    /// Instances whose answer was dropped: removed, pushed to, configured or reloaded meanwhile.
    public var dropped: [InstanceID]
    /// Instances whose providers failed, with why; their relevance is unchanged.
    public var failed: [RelevanceFailure]

    public init(updated: [InstanceID], limited: [InstanceID], dropped: [InstanceID], failed: [RelevanceFailure]) {
        self.updated = updated
        self.limited = limited
        self.dropped = dropped
        self.failed = failed
    }
}

public struct RelevanceFailure: Codable, Sendable, Equatable {
    public var instance: InstanceID
    public var error: String
    public init(instance: InstanceID, error: String) {
        self.instance = instance
        self.error = error
    }
}
