import Foundation
import WidgetCore

// Params and results of each method. Results may grow new fields; scripts rely on the ones
// named in docs/protocol.md.

public struct AddParams: Codable, Sendable {
    public var kind: String
    public var family: String
    public var configuration: [String: JSONValue]?
    /// Also place the new instance at the end of this stack.
    public var stack: String?
    public init(kind: String, family: String, configuration: [String: JSONValue]? = nil, stack: String? = nil) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.stack = stack
    }
}

public struct AddResult: Codable, Sendable {
    public var id: InstanceID
    public init(id: InstanceID) { self.id = id }
}

public struct InstanceParams: Codable, Sendable, Equatable {
    public var id: InstanceID
    public init(id: InstanceID) { self.id = id }
}

public struct RemoveResult: Codable, Sendable {
    public var removed: InstanceID
    public init(removed: InstanceID) { self.removed = removed }
}

public struct ConfigureParams: Codable, Sendable {
    public var id: InstanceID
    /// Values to set; merged into the current configuration unless `replace` is true.
    public var configuration: [String: JSONValue]
    public var replace: Bool?
    public init(id: InstanceID, configuration: [String: JSONValue], replace: Bool? = nil) {
        self.id = id
        self.configuration = configuration
        self.replace = replace
    }
}

/// WidgetKit's `WidgetInfo`, plus what the daemon knows about the instance now.
public struct InstanceInfo: Codable, Sendable {
    public var id: InstanceID
    public var kind: String
    public var family: WidgetFamily
    public var configuration: [String: JSONValue]
    public var currentEntry: WidgetEntry?
    public var hasTimeline: Bool
    public var nextReload: Date?
    /// A host shows it now (its last `visible` report, or the top of a stack just shown).
    public var visible: Bool?
    /// When a host last showed it.
    public var lastVisible: Date?
    /// An action was performed and the reload after it has not ended: the entry is out of date.
    public var invalidated: Bool?
    /// Why the instance is not loaded ("stored row does not decode: ..."); absent for every
    /// instance that is. Such an instance can only be removed.
    public var failure: String?
    public init(
        id: InstanceID, kind: String, family: WidgetFamily, configuration: [String: JSONValue],
        currentEntry: WidgetEntry?, hasTimeline: Bool, nextReload: Date?
    ) {
        self.id = id
        self.kind = kind
        self.family = family
        self.configuration = configuration
        self.currentEntry = currentEntry
        self.hasTimeline = hasTimeline
        self.nextReload = nextReload
    }
}
