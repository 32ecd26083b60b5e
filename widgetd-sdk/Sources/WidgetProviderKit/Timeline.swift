import Foundation

/// Entries and when to ask for the next ones (WidgetKit's `Timeline`).
public struct Timeline<EntryType: TimelineEntry>: Sendable {
    /// Entries in any order: widgetd sorts them by date on arrival.
    public let entries: [EntryType]
    public let policy: TimelineReloadPolicy

    public init(entries: [EntryType], policy: TimelineReloadPolicy) {
        self.entries = entries
        self.policy = policy
    }
}
