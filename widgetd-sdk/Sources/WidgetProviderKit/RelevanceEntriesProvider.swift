import Foundation

/// Produces a widget built from context clues alone (RelevanceKit's `RelevanceEntriesProvider`,
/// used with ``RelevanceConfiguration``): it says when the widget matters (``relevance(in:)``)
/// and what it shows (``entry(in:)``); it gives no dates and no reload policy.
///
/// ```swift
/// struct StationProvider: RelevanceEntriesProvider {
///     func placeholder(in context: Context) -> DepartureEntry { DepartureEntry(date: context.date, line: "S1") }
///     func relevance(in context: Context) async throws -> WidgetRelevance {
///         WidgetRelevance([WidgetRelevanceAttribute(context: .location(latitude: 52.5251, longitude: 13.3694, radius: 300))])
///     }
///     func entry(in context: Context) async throws -> DepartureEntry { ... }
/// }
/// ```
public protocol RelevanceEntriesProvider: Sendable {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// Sample content shown before any entry exists; answer at once, without I/O.
    func placeholder(in context: Context) -> Entry

    /// The contexts in which the widget is relevant.
    func relevance(in context: Context) async throws -> WidgetRelevance

    /// What the widget shows; its `relevance` is replaced by the contexts of ``relevance(in:)``.
    func entry(in context: Context) async throws -> Entry
}
