import Foundation
import WidgetCore

// Params and results of Smart Stacks: stacks, donations, the decision log, explain.

public struct StackNameParams: Codable, Sendable, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
}

public struct StackCreateParams: Codable, Sendable {
    public var name: String
    public var smartRotate: Bool?
    public init(name: String, smartRotate: Bool? = nil) {
        self.name = name
        self.smartRotate = smartRotate
    }
}

public struct StackAddParams: Codable, Sendable {
    public var name: String
    public var instances: [InstanceID]
    public init(name: String, instances: [InstanceID]) {
        self.name = name
        self.instances = instances
    }
}

public struct StackSwipeParams: Codable, Sendable {
    public var name: String
    public var instance: InstanceID
    public init(name: String, instance: InstanceID) {
        self.name = name
        self.instance = instance
    }
}

public struct StackSmartRotateParams: Codable, Sendable {
    public var name: String
    public var on: Bool
    public init(name: String, on: Bool) {
        self.name = name
        self.on = on
    }
}

/// A stack as `stack show` prints it (docs/widgetctl.md: `name`, `top`, `instances`, `smartRotate`).
public struct StackInfo: Codable, Sendable {
    public var name: String
    public var top: InstanceID?
    public var instances: [InstanceID]
    public var smartRotate: Bool
    public var userChoice: InstanceID?
    public var topSince: Date?
    public var holdUntil: Date?
    /// Its top is invalidated (an action was performed and its reload has not ended); absent
    /// otherwise, and in events.
    public var invalidated: Bool?
    public init(_ state: StackState) {
        name = state.name
        top = state.top
        instances = state.instances
        smartRotate = state.smartRotate
        userChoice = state.userChoice
        topSince = state.topSince
        holdUntil = state.holdUntil
    }
}

public struct DonateParams: Codable, Sendable, Equatable {
    public var intentType: String
    public var parameters: [String: JSONValue]?
    public var date: Date?
    public var id: String?
    public var group: String?
    public init(intentType: String, parameters: [String: JSONValue]? = nil, date: Date? = nil, id: String? = nil, group: String? = nil) {
        self.intentType = intentType
        self.parameters = parameters
        self.date = date
        self.id = id
        self.group = group
    }
}

public struct DonateResult: Codable, Sendable {
    /// Instances whose configuration the donation matches.
    public var matched: [InstanceID]
    public init(matched: [InstanceID]) { self.matched = matched }
}

public struct DonationsDeleteParams: Codable, Sendable {
    public var id: String?
    public var group: String?
    public var all: Bool?
    public init(id: String? = nil, group: String? = nil, all: Bool? = nil) {
        self.id = id
        self.group = group
        self.all = all
    }
}

/// `donations.list`: every donation retained, or those of one intent type.
public struct DonationsListParams: Codable, Sendable {
    public var intentType: String?
    public init(intentType: String? = nil) { self.intentType = intentType }
}

public struct DonationsDeleteResult: Codable, Sendable {
    public var deleted: Int
    public init(deleted: Int) { self.deleted = deleted }
}

public struct LogParams: Codable, Sendable {
    public var stack: String?
    public var since: Date?
    public var limit: Int?
    public init(stack: String? = nil, since: Date? = nil, limit: Int? = nil) {
        self.stack = stack
        self.since = since
        self.limit = limit
    }
}

/// `explain`: the ranking now and why the top is what it is.
public struct Explanation: Codable, Sendable {
    public var stack: String
    public var top: InstanceID?
    public var now: Date
    public var smartRotate: Bool
    /// In stack order.
    public var candidates: [RankedCandidate]
    /// The best-ranked eligible candidate, if any has a signal.
    public var best: InstanceID?
    public var why: String
    public init(stack: String, top: InstanceID?, now: Date, smartRotate: Bool, candidates: [RankedCandidate], best: InstanceID?, why: String) {
        self.stack = stack
        self.top = top
        self.now = now
        self.smartRotate = smartRotate
        self.candidates = candidates
        self.best = best
        self.why = why
    }
}

public struct VisibleParams: Codable, Sendable, Equatable {
    public var instances: [InstanceID]
    public init(instances: [InstanceID]) { self.instances = instances }
}

public struct VisibleResult: Codable, Sendable {
    public var visible: [InstanceID]
    public init(visible: [InstanceID]) { self.visible = visible }
}
