import Foundation

/// A context clue under which an entry's relevance applies (RelevanceKit's `RelevantContext`):
/// one alternative of the entry's `relevance.when`, holding when every condition it names
/// does. widgetd evaluates it against what the session reports; a provider never learns where
/// the machine is, it names a region.
///
/// ```swift
/// TimelineEntryRelevance(score: 5, contexts: [
///     .location(latitude: 52.5251, longitude: 13.3694, radius: 300),
///     .headphones().and(.power(.battery)),
/// ])
/// ```
public struct RelevantContext: Codable, Hashable, Sendable {
    public struct Region: Codable, Hashable, Sendable {
        public let latitude: Double
        public let longitude: Double
        /// Metres.
        public let radius: Double
    }

    public enum Power: String, Codable, Hashable, Sendable { case battery, ac }
    public enum Session: String, Codable, Hashable, Sendable { case locked, unlocked }

    public private(set) var location: Region?
    public private(set) var headphones: Bool?
    public private(set) var power: Power?
    public private(set) var session: Session?
    public private(set) var context: [String: String]?

    /// Inside the circle of `radius` metres around the point (the descriptor declares `location`).
    public static func location(latitude: Double, longitude: Double, radius: Double) -> RelevantContext {
        var clue = RelevantContext()
        clue.location = Region(latitude: latitude, longitude: longitude, radius: radius)
        return clue
    }

    /// A headset or headphones connected (or, with false, none).
    public static func headphones(connected: Bool = true) -> RelevantContext {
        var clue = RelevantContext()
        clue.headphones = connected
        return clue
    }

    /// On battery or on AC.
    public static func power(_ source: Power) -> RelevantContext {
        var clue = RelevantContext()
        clue.power = source
        return clue
    }

    /// The session locked or unlocked.
    public static func session(_ state: Session) -> RelevantContext {
        var clue = RelevantContext()
        clue.session = state
        return clue
    }

    /// Values a host reports (`widgetctl context set KEY=VALUE`), each as given.
    public static func context(_ values: [String: String]) -> RelevantContext {
        var clue = RelevantContext()
        clue.context = values
        return clue
    }

    /// Both this and `other` must hold: their conditions in one alternative (a condition both
    /// name takes `other`'s).
    public func and(_ other: RelevantContext) -> RelevantContext {
        var both = self
        both.location = other.location ?? location
        both.headphones = other.headphones ?? headphones
        both.power = other.power ?? power
        both.session = other.session ?? session
        if let values = other.context { both.context = (context ?? [:]).merging(values) { $1 } }
        return both
    }
}
