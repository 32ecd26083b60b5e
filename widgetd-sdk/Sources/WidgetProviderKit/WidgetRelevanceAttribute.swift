/// One context in which a relevance widget matters, and how much (RelevanceKit's
/// `WidgetRelevanceAttribute`).
public struct WidgetRelevanceAttribute: Sendable, Hashable {
    /// The clue that must hold.
    public var context: RelevantContext
    /// Relative to this widget's other attributes; the highest that holds counts.
    public var score: Float

    /// The widget matters while `context` holds, with `score` (1 by default).
    public init(context: RelevantContext, score: Float = 1) {
        self.context = context
        self.score = score
    }
}
