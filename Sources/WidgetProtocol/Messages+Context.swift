import Foundation
import WidgetCore

public struct ContextSetParams: Codable, Sendable, Equatable {
    /// A value sets its key; null removes it.
    public var values: [String: String?]
    public init(values: [String: String?]) { self.values = values }
}

/// `context`: what widgetd knows of the session now. A location is said only to be known or
/// not, never where.
public struct ContextInfo: Codable, Sendable, Equatable {
    /// Each source, in a fixed order.
    public var sources: [ContextSourceInfo]
    /// The session's values, in a fixed order: `session`, `idle`, `power`, `power-profile`,
    /// `headphones`, `location`.
    public var values: [ContextValueInfo]
    /// The values hosts reported, by key.
    public var host: [ContextValueInfo]

    public init(sources: [ContextSourceInfo], values: [ContextValueInfo], host: [ContextValueInfo]) {
        self.sources = sources
        self.values = values
        self.host = host
    }
}

public struct ContextSourceInfo: Codable, Sendable, Equatable {
    public var source: String
    /// `available`, `missing` (not on its bus), `off` (switched off in widgetd.conf) or
    /// `unknown` (no word of it yet).
    public var state: String
    /// When it last appeared or went away.
    public var since: Date?

    public init(source: String, state: String, since: Date?) {
        self.source = source
        self.state = state
        self.since = since
    }
}

public struct ContextValueInfo: Codable, Sendable, Equatable {
    public var name: String
    /// As text (`locked`, `battery`, `true`, `known`, ...); null while unknown.
    public var value: String?
    /// When it last changed.
    public var since: Date?

    public init(name: String, value: String?, since: Date?) {
        self.name = name
        self.value = value
        self.since = since
    }
}
