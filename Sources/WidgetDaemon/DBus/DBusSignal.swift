import WidgetCore
import WidgetProtocol

/// A signal of `WidgetCenter1`: its member and its string args, in order.
struct DBusSignal: Sendable, Hashable {
    let name: String
    let args: [String]

    /// The signals and their args, for introspection (docs/dbus.md).
    static let declarations: [(name: String, args: [String])] = [
        ("EntryChanged", ["instance", "kind"]),
        ("TimelineChanged", ["instance", "kind"]),
        ("Rotated", ["stack", "from", "to", "reason"]),
        ("Invalidated", ["instance", "action"]),
    ]

    /// What the bus is told of an event the socket's subscribers get: entry changes, reloads
    /// (one `TimelineChanged` per instance), stack tops that changed and invalidations. A
    /// rotation held back, a failed reload, stack and descriptor changes have no signal.
    /// `kind` gives an instance's kind, which an entry change does not carry.
    static func signals(for event: WidgetEvent, kind: (InstanceID) -> String?) -> [DBusSignal] {
        switch event.type {
        case .entryChange:
            guard let id = event.instance else { return [] }
            return [DBusSignal(name: "EntryChanged", args: [id, event.kind ?? kind(id) ?? ""])]
        case .reload:
            let kindName = event.kind ?? ""
            return (event.instances ?? []).map { DBusSignal(name: "TimelineChanged", args: [$0, kindName]) }
        case .rotation:
            guard let decision = event.decision, let to = decision.to else { return [] }
            return [DBusSignal(name: "Rotated", args: [decision.stack, decision.from ?? "", to, decision.reason.rawValue])]
        case .invalidated:
            guard let id = event.instance else { return [] }
            return [DBusSignal(name: "Invalidated", args: [id, event.action ?? ""])]
        case .reloadFailed, .stack, .widgets:
            return []
        }
    }
}
