import Foundation
import WidgetCore

/// What a subscriber is told, as the params of a `{"method": "event"}` JSON-RPC notification.
public struct WidgetEvent: Codable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// An instance's shown entry changed: at its entry date, or a timeline was pushed.
        case entryChange
        /// A host performed one of the instance's actions (`action`): what it shows is out of
        /// date until the reload that follows ends (a `reload`, `entryChange` or `reloadFailed`).
        case invalidated
        /// Timelines were reloaded by one provider launch.
        case reload
        /// A launch failed; the previous timelines stay.
        case reloadFailed
        /// A stack's top changed, or a better candidate was held back.
        case rotation
        /// A stack was created, changed or removed.
        case stack
        /// A re-read of the widgets directories added, changed or removed kinds, or skipped
        /// other files than before (`widgets` holds what).
        case widgets
    }

    public var type: Kind
    public var date: Date
    public var instance: InstanceID?
    public var instances: [InstanceID]?
    public var kind: String?
    public var entry: WidgetEntry?
    public var error: String?
    public var decision: RotationDecision?
    public var stack: StackInfo?
    /// For a removed stack.
    public var stackName: String?
    /// For `widgets`: what the re-read changed.
    public var widgets: DescriptorChanges?
    /// For `invalidated`: the action performed.
    public var action: String?

    public init(
        type: Kind, date: Date, instance: InstanceID? = nil, instances: [InstanceID]? = nil, kind: String? = nil,
        entry: WidgetEntry? = nil, error: String? = nil, decision: RotationDecision? = nil, stack: StackInfo? = nil,
        stackName: String? = nil, widgets: DescriptorChanges? = nil
    ) {
        self.type = type
        self.date = date
        self.instance = instance
        self.instances = instances
        self.kind = kind
        self.entry = entry
        self.error = error
        self.decision = decision
        self.stack = stack
        self.stackName = stackName
        self.widgets = widgets
    }
}

/// The notification line itself.
public struct EventNotification: Codable, Sendable {
    public var jsonrpc = "2.0"
    public var method = "event"
    public var params: WidgetEvent

    public init(_ event: WidgetEvent) {
        params = event
    }
}

extension WidgetEvent {
    /// What a subscriber is told of a change to the state.
    public init(_ event: StateEvent) {
        switch event {
        case .entryChange(let id, let date, let entry):
            self.init(type: .entryChange, date: date, instance: id, entry: entry)
        case .invalidated(let id, let action, let date):
            self.init(type: .invalidated, date: date, instance: id)
            self.action = action
        case .reload(let kind, let instances, let date):
            self.init(type: .reload, date: date, instances: instances, kind: kind)
        case .reloadFailed(let kind, let instances, let error, let date):
            self.init(type: .reloadFailed, date: date, instances: instances, kind: kind, error: error)
        case .rotation(let decision, let stack):
            self.init(type: .rotation, date: decision.date, decision: decision, stack: StackInfo(stack))
        case .stack(let stack, let date):
            self.init(type: .stack, date: date, stack: StackInfo(stack))
        case .stackRemoved(let name, let date):
            self.init(type: .stack, date: date, stackName: name)
        }
    }
}
