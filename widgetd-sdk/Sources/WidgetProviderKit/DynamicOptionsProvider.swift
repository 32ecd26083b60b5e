/// A provider that offers the choices of its `entity` parameters at run time (WidgetKit's
/// intent handler with `provide<Parameter>OptionsCollection(for:searchTerm:with:)`, answered
/// here by the provider itself, through the `options` verb).
///
/// ```swift
/// extension RandomNumberProvider: DynamicOptionsProvider {
///     func options(for parameter: String, matching search: String?, in context: Context)
///         async throws -> [IntentOption]
///     {
///         CustomRange.all.map { IntentOption(id: $0.id, display: $0.display) }.matching(search)
///     }
/// }
/// ```
public protocol DynamicOptionsProvider: Sendable {
    /// The options of `parameter`, filtered by the user's search text when there is one (use
    /// `matching(_:)` for a substring filter). `context.configuration` holds the values chosen
    /// so far. Throw for a parameter that has no dynamic options.
    func options(
        for parameter: String, matching search: String?, in context: TimelineProviderContext
    ) async throws -> [IntentOption]
}
