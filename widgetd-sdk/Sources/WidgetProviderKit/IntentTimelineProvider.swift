import Foundation

/// Produces the entries of a configurable widget (WidgetKit's `IntentTimelineProvider`, used
/// with ``IntentConfiguration``).
///
/// `Intent` is a `Decodable` struct the author writes in place of the class Xcode generates
/// from an intent definition: one property per parameter, named as in the descriptor's
/// `intent.parameters`. It is decoded from the instance's effective configuration (defaults
/// filled in, parameters hidden by `showIf` removed, so make those optional):
///
/// ```swift
/// struct RandomNumberIntent: Decodable, Sendable {
///     var maxNumber: Int?         // integer
///     var useCustomRange: Bool?   // boolean
///     var customRange: String?    // entity: the chosen option's id
/// }
/// ```
///
/// Enums decode from their case id (`enum Hero: String, Decodable`), dates from ISO 8601 text,
/// `multiple` parameters into arrays. As with ``TimelineProvider``, implement one style: the
/// completion-handler forms or the async forms.
public protocol IntentTimelineProvider: Sendable {
    associatedtype Entry: TimelineEntry
    associatedtype Intent: Decodable & Sendable
    typealias Context = TimelineProviderContext

    /// Sample content shown before any timeline exists; answer at once, without I/O.
    func placeholder(in context: Context) -> Entry

    /// One entry for now, for the widget gallery (`context.isPreview`) and transient displays.
    func getSnapshot(for configuration: Intent, in context: Context, completion: @escaping @Sendable (Entry) -> Void)

    /// Entries for now and the future, and when to ask again.
    func getTimeline(
        for configuration: Intent, in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)

    /// The async form of `getSnapshot(for:in:completion:)`.
    func snapshot(for configuration: Intent, in context: Context) async -> Entry

    /// The async form of `getTimeline(for:in:completion:)`.
    func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry>
}

extension IntentTimelineProvider {
    public func getSnapshot(
        for configuration: Intent, in context: Context, completion: @escaping @Sendable (Entry) -> Void
    ) {
        StyleBridge.ensureImplemented("getSnapshot(for:in:completion:)", or: "snapshot(for:in:)", by: self)
        Task { completion(await snapshot(for: configuration, in: context)) }
    }

    public func getTimeline(
        for configuration: Intent, in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void
    ) {
        StyleBridge.ensureImplemented("getTimeline(for:in:completion:)", or: "timeline(for:in:)", by: self)
        Task { completion(await timeline(for: configuration, in: context)) }
    }

    public func snapshot(for configuration: Intent, in context: Context) async -> Entry {
        await StyleBridge.awaitCompletion(of: "getSnapshot(for:in:completion:)") {
            getSnapshot(for: configuration, in: context, completion: $0)
        }
    }

    public func timeline(for configuration: Intent, in context: Context) async -> Timeline<Entry> {
        await StyleBridge.awaitCompletion(of: "getTimeline(for:in:completion:)") {
            getTimeline(for: configuration, in: context, completion: $0)
        }
    }
}
