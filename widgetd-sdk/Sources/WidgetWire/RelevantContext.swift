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
    /// A circle on the earth; widgetd decides whether the machine is inside it.
    public struct Region: Codable, Hashable, Sendable {
        /// Degrees, -90 to 90.
        public let latitude: Double
        /// Degrees, -180 to 180.
        public let longitude: Double
        /// Metres.
        public let radius: Double
    }

    /// What the machine runs on.
    public enum Power: String, Codable, Hashable, Sendable { case battery, ac }
    /// Whether the session is locked.
    public enum Session: String, Codable, Hashable, Sendable { case locked, unlocked }

    /// The region the machine must be inside, if this context names one.
    public private(set) var location: Region?
    /// Whether a headset or headphones must be connected, if this context says.
    public private(set) var headphones: Bool?
    /// What the machine must run on, if this context says.
    public private(set) var power: Power?
    /// What the session must be, if this context says.
    public private(set) var session: Session?
    /// Values hosts must have set (`context.set`), if this context names any.
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
