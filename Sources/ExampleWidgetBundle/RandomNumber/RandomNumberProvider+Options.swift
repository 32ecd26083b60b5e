import WidgetProviderKit

/// The tutorial's `IntentHandler.provideCustomRangeOptionsCollection(for:with:)`, answered by
/// the provider itself through widgetd's `options` verb.
extension RandomNumberProvider: DynamicOptionsProvider {
    func options(for parameter: String, matching search: String?, in context: Context) async throws -> [IntentOption] {
        guard parameter == "customRange" else {
            throw WidgetProviderError.noDynamicOptions(kind: context.kind, parameter: parameter)
        }
        return CustomRange.all.map { IntentOption(id: $0.id, display: $0.display) }.matching(search)
    }
}
