/// WidgetKit's App Intents names (iOS 17), for code written against them: their async
/// `snapshot(for:in:)` / `timeline(for:in:)` are the async forms of ``IntentTimelineProvider``.
/// The `AppIntent` struct with `@Parameter`s becomes a `Decodable` struct.
public typealias AppIntentTimelineProvider = IntentTimelineProvider

/// WidgetKit's `AppIntentConfiguration`, without the view closure.
public typealias AppIntentConfiguration = IntentConfiguration
