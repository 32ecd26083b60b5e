import WidgetWire

/// A kind whose provider takes no intent (WidgetKit's `StaticConfiguration`, without the
/// view closure). The provider can still read `context.configuration`.
public struct StaticConfiguration<Provider: TimelineProvider>: WidgetConfiguration {
    public let kind: String
    public let provider: Provider
    /// The intents its entries may offer as buttons (``EntryAction``), as the descriptor's
    /// `actions` declares them: `perform` decodes an intent by its type among these.
    public let actions: [any WidgetActionIntent.Type]

    public init(kind: String, provider: Provider, actions: [any WidgetActionIntent.Type] = []) {
        self.kind = kind
        self.provider = provider
        self.actions = actions
    }
}

extension StaticConfiguration: KindServing {
    func placeholder(in context: TimelineProviderContext) throws -> WireEntry {
        try WireEntry(provider.placeholder(in: context))
    }

    func snapshot(in context: TimelineProviderContext) async throws -> WireEntry {
        try WireEntry(await provider.snapshot(in: context))
    }

    func timeline(in context: TimelineProviderContext) async throws -> WireTimeline {
        try WireTimeline(await provider.timeline(in: context))
    }

    func options(for parameter: String, matching search: String?, in context: TimelineProviderContext)
        async throws -> [IntentOption]
    {
        try await dynamicOptions(from: provider, parameter: parameter, search: search, context: context)
    }

    func relevance(in context: TimelineProviderContext) async throws -> [DatedRelevance] {
        try await freshRelevance(from: provider, context: context)
    }
}
