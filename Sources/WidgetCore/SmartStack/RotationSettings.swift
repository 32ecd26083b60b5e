import Foundation

/// The Smart Rotate tunables (docs/smart-stacks.md).
public struct RotationSettings: Sendable, Hashable, Codable {
    /// rank = relevance × relative relevance + affinity × donation affinity.
    public var relevanceWeight: Double = 1.0
    public var affinityWeight: Double = 0.6
    /// A candidate must beat the top's rank by this much.
    public var margin: Double = 0.1
    /// The top stays at least this long before Smart Rotate changes it.
    public var minimumDwell: TimeInterval = 900
    /// Rotations per stack in any hour.
    public var hourlyCap: Int = 4
    /// After a swipe the stack does not rotate on its own for this long.
    public var userHold: TimeInterval = 3600
    /// A rank at or below this is "no signal".
    public var signalThreshold: Double = 0.05
    /// How far back an instance's own scores count for its relative relevance.
    public var relevanceWindow: TimeInterval = 30 * 86400

    public init() {}
}
