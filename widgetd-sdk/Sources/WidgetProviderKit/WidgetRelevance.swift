/// The contexts in which a relevance widget matters (RelevanceKit's `WidgetRelevance`).
public struct WidgetRelevance: Sendable, Hashable {
    public var attributes: [WidgetRelevanceAttribute]

    public init(_ attributes: [WidgetRelevanceAttribute]) {
        self.attributes = attributes
    }
}
