/// WidgetKit's App Intents names (iOS 17), for code written against them: their async
/// `snapshot(for:in:)` / `timeline(for:in:)` are the async forms of ``IntentTimelineProvider``.
/// The `AppIntent` struct with `@Parameter`s becomes a `Decodable` struct.
public typealias AppIntentTimelineProvider = IntentTimelineProvider

/// WidgetKit's `AppIntentConfiguration`, without the view closure.
public typealias AppIntentConfiguration = IntentConfiguration

/// WidgetKit's `AppIntent` as a widget's button runs it: `perform(in:)` takes the request's
/// context, and the parameters are the struct's stored properties instead of `@Parameter`s.
public typealias AppIntent = WidgetActionIntent
