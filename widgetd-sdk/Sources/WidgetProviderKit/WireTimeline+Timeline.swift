import WidgetWire

extension WireTimeline {
    init<Entry>(_ timeline: Timeline<Entry>) throws {
        self.init(entries: try timeline.entries.map(WireEntry.init), policy: timeline.policy)
    }
}

/// Encodes as Timeline JSON, so an app can hand its provider's timeline straight to
/// `WidgetCenter.push(_:to:)` of WidgetdClient.
extension Timeline: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try WireTimeline(self).encode(to: encoder)
    }
}
