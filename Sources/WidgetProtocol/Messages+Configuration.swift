import Foundation
import WidgetCore

// Params and results of the configuration methods: preview, placeholder, options.

public struct PreviewParams: Codable, Sendable {
    public var kind: String
    public var family: String
    public var configuration: [String: JSONValue]?
    public init(kind: String, family: String, configuration: [String: JSONValue]? = nil) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}

public struct EntryResult: Codable, Sendable {
    public var kind: String
    public var family: WidgetFamily
    /// The effective configuration the provider was given.
    public var configuration: [String: JSONValue]
    public var entry: WidgetEntry
    public init(kind: String, family: WidgetFamily, configuration: [String: JSONValue], entry: WidgetEntry) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.entry = entry
    }
}

public struct OptionsParams: Codable, Sendable {
    public var kind: String
    public var parameter: String
    public var search: String?
    /// Default: the kind's first supported family.
    public var family: String?
    public init(kind: String, parameter: String, search: String? = nil, family: String? = nil) {
        self.kind = kind
        self.parameter = parameter
        self.search = search
        self.family = family
    }
}

public struct OptionsResult: Codable, Sendable {
    public var kind: String
    public var parameter: String
    public var options: [EntityOption]
    public init(kind: String, parameter: String, options: [EntityOption]) {
        self.kind = kind
        self.parameter = parameter
        self.options = options
    }
}

public struct InvalidateParams: Codable, Sendable {
    /// nil: every kind.
    public var kind: String?
    public init(kind: String? = nil) { self.kind = kind }
}

public struct InvalidateResult: Codable, Sendable {
    /// Cached option lists dropped.
    public var cleared: Int
    public init(cleared: Int) { self.cleared = cleared }
}
