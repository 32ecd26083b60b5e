import WidgetWire

/// How the bundle answers each verb for one kind; the two configuration types adopt it, so
/// dispatch needs no knowledge of providers' associated types.
protocol KindServing: WidgetConfiguration {
    /// The intent types this kind's entries may attach as actions.
    var actions: [any WidgetActionIntent.Type] { get }
    func placeholder(in context: TimelineProviderContext) throws -> WireEntry
    func snapshot(in context: TimelineProviderContext) async throws -> WireEntry
    func timeline(in context: TimelineProviderContext) async throws -> WireTimeline
    func options(for parameter: String, matching search: String?, in context: TimelineProviderContext)
        async throws -> [IntentOption]
    func relevance(in context: TimelineProviderContext) async throws -> [DatedRelevance]
}

extension KindServing {
    /// The options verb for any provider: only a `DynamicOptionsProvider` has options.
    func dynamicOptions(
        from provider: some Sendable, parameter: String, search: String?, context: TimelineProviderContext
    ) async throws -> [IntentOption] {
        guard let provider = provider as? any DynamicOptionsProvider else {
            throw WidgetProviderError.noDynamicOptions(kind: kind, parameter: parameter)
        }
        return try await provider.options(for: parameter, matching: search, in: context)
    }
}
