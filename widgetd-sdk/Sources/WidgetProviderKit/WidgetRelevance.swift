/// The contexts in which a relevance widget matters (RelevanceKit's `WidgetRelevance`).
public struct WidgetRelevance: Sendable, Hashable {
    /// The contexts, any of which makes the widget relevant; none: never relevant by a clue.
    public var attributes: [WidgetRelevanceAttribute]

    /// The widget matters in each of `attributes`' contexts.
    public init(_ attributes: [WidgetRelevanceAttribute]) {
        self.attributes = attributes
    }
}
