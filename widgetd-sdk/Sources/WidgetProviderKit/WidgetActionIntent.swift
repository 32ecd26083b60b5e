/// What a button in a widget runs (WidgetKit's `AppIntent`, attached with `Button(intent:)`):
/// a Codable struct whose stored properties are the intent's parameters, and `perform(in:)`.
///
/// ```swift
/// struct ToggleTaskIntent: WidgetActionIntent {
///     static let intentType = "ToggleTask"
///     var task: String
///     var done: Bool
///
///     func perform(in context: TimelineProviderContext) async throws -> IntentResult {
///         try TaskStore(instance: context.instance).set(task, done: done)
///         return .result(dialog: done ? "Marked done" : "Marked not done")
///     }
/// }
/// ```
///
/// The descriptor declares the type under `actions` with the same parameters (names and
/// types as in `intent.parameters`); the configuration that serves the kind lists the struct in
/// `actions:`, so the bundle can decode a `perform` request by its type name. An entry offers
/// the intent through an ``EntryAction``.
public protocol WidgetActionIntent: Codable, Sendable {
    /// The intent's type name, exactly as the descriptor's `actions[].type`.
    static var intentType: String { get }

    /// Carries the action out. Unlike WidgetKit's `perform()`, it takes the request's context:
    /// a WidgetKit intent runs in the app, which knows its own state, while a provider process
    /// learns the instance, its configuration and widgetd's clock only from the request.
    /// widgetd reloads the instance afterwards, so the change shows in the next timeline.
    func perform(in context: TimelineProviderContext) async throws -> IntentResult
}

/// What a performed intent answers (WidgetKit's `IntentResult`): an optional dialog a host may
/// show, e.g. "Marked done". Encoded as `{"dialog": ...}`, or `{}` without one.
public struct IntentResult: Encodable, Hashable, Sendable {
    /// A short sentence for the user, or nil.
    public var dialog: String?

    public init(dialog: String? = nil) {
        self.dialog = dialog
    }

    /// `return .result()` or `return .result(dialog: "Marked done")`, as in WidgetKit.
    public static func result(dialog: String? = nil) -> IntentResult {
        IntentResult(dialog: dialog)
    }
}
