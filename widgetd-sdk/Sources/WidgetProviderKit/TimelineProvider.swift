import Foundation

/// Produces the entries of a widget that has no configuration (WidgetKit's
/// `TimelineProvider`, used with ``StaticConfiguration``).
///
/// Implement `placeholder(in:)` and one style of the other two: the completion-handler forms
/// (`getSnapshot`, `getTimeline`, as WidgetKit tutorials write them) or the async forms
/// (`snapshot`, `timeline`). Each style has a default built on the other, and the SDK calls
/// the async forms. Call each completion handler exactly once.
///
/// Use `context.date` wherever WidgetKit code uses `Date()`: it is widgetd's clock, which may
/// be virtual.
public protocol TimelineProvider: Sendable {
    associatedtype Entry: TimelineEntry
    typealias Context = TimelineProviderContext

    /// Sample content shown before any timeline exists; answer at once, without I/O.
    func placeholder(in context: Context) -> Entry

    /// One entry for now, for the widget gallery (`context.isPreview`) and transient displays.
    func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)

    /// Entries for now and the future, and when to ask again.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)

    /// The async form of `getSnapshot(in:completion:)`.
    func snapshot(in context: Context) async -> Entry

    /// The async form of `getTimeline(in:completion:)`.
    func timeline(in context: Context) async -> Timeline<Entry>
}

extension TimelineProvider {
    public func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void) {
        StyleBridge.ensureImplemented("getSnapshot(in:completion:)", or: "snapshot(in:)", by: self)
        Task { completion(await snapshot(in: context)) }
    }

    public func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void) {
        StyleBridge.ensureImplemented("getTimeline(in:completion:)", or: "timeline(in:)", by: self)
        Task { completion(await timeline(in: context)) }
    }

    public func snapshot(in context: Context) async -> Entry {
        await StyleBridge.awaitCompletion(of: "getSnapshot(in:completion:)") {
            getSnapshot(in: context, completion: $0)
        }
    }

    public func timeline(in context: Context) async -> Timeline<Entry> {
        await StyleBridge.awaitCompletion(of: "getTimeline(in:completion:)") {
            getTimeline(in: context, completion: $0)
        }
    }
}
