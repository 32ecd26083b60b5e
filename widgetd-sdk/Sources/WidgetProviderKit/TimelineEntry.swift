import Foundation

/// What a widget shows from `date` on: WidgetKit's `TimelineEntry`, made `Encodable` because
/// widgetd carries entries as JSON instead of rendering a SwiftUI view in-process.
///
/// Every stored property other than `date`, `relevance` and `actions` becomes a field of the entry's JSON
/// `content`, through the type's `Encodable` conformance (synthesised for a struct whose
/// properties are `Encodable`; rename fields with `CodingKeys`, nested values stay nested):
///
/// ```swift
/// struct RandomNumberEntry: TimelineEntry {
///     let date: Date
///     let number: Int
/// }
/// // {"date": "2026-01-05T08:00:00Z", "content": {"number": 42}}
/// ```
public protocol TimelineEntry: Encodable, Sendable {
    /// When the host starts showing this entry.
    var date: Date { get }

    /// How relevant the entry is for Smart Stack rotation; nil leaves the previous relevance
    /// in force (docs/smart-stacks.md).
    var relevance: TimelineEntryRelevance? { get }

    /// The buttons a host shows while this entry is current (WidgetKit's `Button(intent:)`).
    /// Like `date` and `relevance`, a stored `actions` property stays out of the content.
    var actions: [EntryAction] { get }
}

extension TimelineEntry {
    /// No relevance, as in WidgetKit: declare a `relevance` property to give one.
    public var relevance: TimelineEntryRelevance? { nil }

    /// No buttons: declare an `actions` property to offer some.
    public var actions: [EntryAction] { [] }
}
