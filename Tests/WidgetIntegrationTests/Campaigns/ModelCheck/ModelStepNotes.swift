/// What the model did during one step, for a post-mortem.
struct ModelStepNotes: Sendable {
    /// One evaluation of a stack: when, and each member's rank (-1 when ineligible, so that
    /// an ineligible member tells from an eligible one without a signal).
    struct Evaluation: Sendable {
        var date: Seconds
        var stack: String
        var ranks: [String: Double]
    }

    /// The step's first instant.
    var start: Seconds = 0
    /// Every evaluation at the instants of this step (and of earlier steps at its first instant).
    var evaluations: [Evaluation] = []
    /// Smart Rotate's rotations at the same instants: when, which stack, to which instance.
    var rotations: [(date: Seconds, stack: String, to: String)] = []
    /// Each evaluation as a line, while `tracing` (set by `WIDGETD_MODEL_TRACE_STEP`).
    var tracing = false
    var trace: [String] = []

    /// A new step from `now`: evaluations at `now` are kept, since an earlier step's request at
    /// the same instant may have made the decisions the daemon logged at it.
    mutating func begin(at now: Seconds, tracing: Bool) {
        start = now
        evaluations.removeAll { $0.date < now }
        rotations.removeAll { $0.date < now }
        self.tracing = tracing
        trace = []
    }
}
