import Foundation

/// A timeline as widgetd reads it: `{"entries": [...], "policy": ...}`.
struct WireTimeline: Encodable, Sendable {
    let entries: [WireEntry]
    let policy: TimelineReloadPolicy

    init<Entry>(_ timeline: Timeline<Entry>) throws {
        entries = try timeline.entries.map(WireEntry.init)
        policy = timeline.policy
    }
}

/// Encodes as Timeline JSON, so an app can hand its provider's timeline straight to
/// `WidgetCenter.push(_:to:)` of WidgetdClient.
extension Timeline: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try WireTimeline(self).encode(to: encoder)
    }
}
