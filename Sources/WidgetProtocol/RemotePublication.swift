import Foundation
import WidgetCore

/// One message widgetd publishes under `PREFIX/state/` when `[remote] publish` is on
/// (docs/remote.md): every event, and each stack's state, retained.
public struct RemotePublication: Sendable, Hashable {
    public var topic: String
    public var payload: [UInt8]
    /// Kept by the broker for whoever subscribes later; an empty retained payload clears it.
    public var retain: Bool

    public init(topic: String, payload: [UInt8], retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

extension RemoteTopics {
    /// Every event on `PREFIX/state/events`; a stack's new state also on its retained topic,
    /// and a removed stack's retained state cleared.
    public func publications(for event: WidgetEvent) -> [RemotePublication] {
        guard let payload = try? WidgetJSON.encoder.encode(event) else { return [] }
        var out = [RemotePublication(topic: prefix + "/state/events", payload: Array(payload), retain: false)]
        if let stack = event.stack, let state = publication(for: stack) {
            out.append(state)
        } else if let name = event.stackName {
            out.append(RemotePublication(topic: stackTopic(name), payload: [], retain: true))
        }
        return out
    }

    /// A stack's state (its top, members, hold), retained on `PREFIX/state/stacks/NAME`.
    public func publication(for stack: StackInfo) -> RemotePublication? {
        guard let payload = try? WidgetJSON.encoder.encode(stack) else { return nil }
        return RemotePublication(topic: stackTopic(stack.name), payload: Array(payload), retain: true)
    }

    /// A stack name as one topic level: `/` would split it and `+`, `#` are not allowed in a
    /// published topic, so those (and `%`) are percent-encoded.
    public func stackTopic(_ name: String) -> String {
        var level = ""
        for character in name {
            switch character {
            case "%": level += "%25"
            case "/": level += "%2F"
            case "+": level += "%2B"
            case "#": level += "%23"
            default: level.append(character)
            }
        }
        return prefix + "/state/stacks/" + level
    }
}
