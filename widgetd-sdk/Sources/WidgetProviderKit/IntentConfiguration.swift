import WidgetWire

/// A configurable kind (WidgetKit's `IntentConfiguration`, without the view closure): each
/// request's configuration is decoded as the provider's `Intent`.
///
/// ```swift
/// IntentConfiguration(kind: "com.example.random-number", intent: RandomNumberIntent.self,
///                     provider: RandomNumberProvider())
/// IntentConfiguration(kind: "com.example.todo", intent: SelectListIntent.self,
///                     provider: ToDoProvider(), actions: [ToggleTaskIntent.self])
/// ```
public struct IntentConfiguration<Provider: IntentTimelineProvider>: WidgetConfiguration {
    public let kind: String
    public let provider: Provider
    /// The intents its entries may offer as buttons (``EntryAction``), as the descriptor's
    /// `actions` declares them: `perform` decodes an intent by its type among these.
    public let actions: [any WidgetActionIntent.Type]

    public init(
        kind: String, intent: Provider.Intent.Type, provider: Provider, actions: [any WidgetActionIntent.Type] = []
    ) {
        self.kind = kind
        self.provider = provider
        self.actions = actions
    }
}

extension IntentConfiguration: KindServing {
    func placeholder(in context: TimelineProviderContext) throws -> WireEntry {
        try WireEntry(provider.placeholder(in: context))
    }

    func snapshot(in context: TimelineProviderContext) async throws -> WireEntry {
        let intent = try intent(from: context)
        return try WireEntry(await provider.snapshot(for: intent, in: context))
    }

    func timeline(in context: TimelineProviderContext) async throws -> WireTimeline {
        let intent = try intent(from: context)
        return try WireTimeline(await provider.timeline(for: intent, in: context))
    }

    func options(for parameter: String, matching search: String?, in context: TimelineProviderContext)
        async throws -> [IntentOption]
    {
        try await dynamicOptions(from: provider, parameter: parameter, search: search, context: context)
    }

    func relevance(in context: TimelineProviderContext) async throws -> [DatedRelevance] {
        try await freshRelevance(from: provider, context: context)
    }

    private func intent(from context: TimelineProviderContext) throws -> Provider.Intent {
        do {
            return try context.configuration.decode(Provider.Intent.self)
        } catch let error as DecodingError {
            throw WidgetProviderError.badConfiguration(kind: kind, reason: error.shortDescription(topLevel: "(top level)"))
        }
    }
}
