/// A timeline as widgetd reads it: `{"entries": [...], "policy": ...}`.
public struct WireTimeline: Encodable, Sendable, Hashable {
    public let entries: [WireEntry]
    public let policy: TimelineReloadPolicy

    public init(entries: [WireEntry], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
