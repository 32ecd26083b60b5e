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
