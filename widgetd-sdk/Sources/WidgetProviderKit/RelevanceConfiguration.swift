import Foundation
import WidgetWire

/// A kind built from context clues alone (RelevanceKit's `RelevanceConfiguration`, without
/// the view): its timeline is one entry, now, relevant under the provider's contexts, and
/// asked for again only when widgetd reloads it. Its descriptor declares the clues the
/// contexts name (`"clues": [...]`).
public struct RelevanceConfiguration<Provider: RelevanceEntriesProvider>: WidgetConfiguration {
    /// The widget kind, as its descriptor names it.
    public let kind: String
    /// Gives the entry and the contexts in which it matters.
    public let provider: Provider

    /// A kind `kind` whose one entry `provider` gives, relevant while any of its contexts holds.
    public init(kind: String, provider: Provider) {
        self.kind = kind
        self.provider = provider
    }

    /// The timeline widgetd receives: the provider's entry at `context.date`, relevant while
    /// any of the contexts holds. One entry carries one score, so it takes the highest
    /// attribute's: a widget's relevance is relative to its own scores anyway.
    func timeline(in context: TimelineProviderContext) async throws -> WireTimeline {
        let relevance = try await provider.relevance(in: context)
        let entry = try WireEntry(try await provider.entry(in: context))
        let best = relevance.attributes.map(\.score).max() ?? 1
        let contexts = relevance.attributes.map(\.context)
        let clues = contexts.isEmpty ? nil : TimelineEntryRelevance(score: best, contexts: contexts)
        return WireTimeline(
            entries: [WireEntry(date: context.date, content: entry.content, relevance: clues, actions: entry.actions)],
            policy: .never)
    }
}

extension RelevanceConfiguration: KindServing {
    var actions: [any WidgetActionIntent.Type] { [] }

    func placeholder(in context: TimelineProviderContext) throws -> WireEntry {
        try WireEntry(provider.placeholder(in: context))
    }

    func snapshot(in context: TimelineProviderContext) async throws -> WireEntry {
        try WireEntry(try await provider.entry(in: context))
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
