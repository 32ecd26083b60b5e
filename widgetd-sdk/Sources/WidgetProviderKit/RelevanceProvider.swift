import Foundation

/// A provider that can say how relevant its widget is now without new entries (iOS 18's
/// `relevance()`, asked when an app calls `invalidateRelevance(ofKind:)`; answered here through
/// the `relevance` verb). `context.instance` names the instance asked about, and
/// `context.configuration` holds its configuration.
///
/// ```swift
/// extension WeatherProvider: RelevanceProvider {
///     func relevance(in context: Context) async throws -> [DatedRelevance] {
///         [DatedRelevance(date: context.date, score: stormWarning ? 1 : 0.1, duration: 3600)]
///     }
/// }
/// ```
public protocol RelevanceProvider: Sendable {
    /// Dated scores, each holding from its date for its duration (0: until the next), as an
    /// entry's relevance does; they replace the relevance of the entries shown from the first
    /// date on.
    func relevance(in context: TimelineProviderContext) async throws -> [DatedRelevance]
}

/// A score from a date: `TimelineEntryRelevance` without an entry.
public struct DatedRelevance: Codable, Hashable, Sendable {
    public var date: Date
    public var score: Float
    public var duration: TimeInterval
    /// The contexts under which it applies (`when`); nil: always.
    public var contexts: [RelevantContext]?

    public init(date: Date, score: Float, duration: TimeInterval = 0, contexts: [RelevantContext]? = nil) {
        self.date = date
        self.score = score
        self.duration = duration
        self.contexts = contexts
    }

    private enum CodingKeys: String, CodingKey { case date, score, duration, contexts = "when" }
}

extension KindServing {
    /// The relevance verb for any provider: only a `RelevanceProvider` answers it.
    func freshRelevance(from provider: some Sendable, context: TimelineProviderContext) async throws -> [DatedRelevance] {
        guard let provider = provider as? any RelevanceProvider else { throw WidgetProviderError.noRelevance(kind: kind) }
        return try await provider.relevance(in: context)
    }
}
