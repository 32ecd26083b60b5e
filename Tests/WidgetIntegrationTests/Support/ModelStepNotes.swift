/// What the model saw during one step that a disagreement with a known cause is told by, and
/// a trace for a post-mortem.
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
    /// Stacks that had a member launched at an instant where the daemon may evaluate them
    /// before every launch of that instant has landed (issue 12): another launch of the same
    /// instant, or another change of the stack at that instant.
    var racyStacks: Set<String> = []
    /// Stacks that had a member's score leave the relevance window, a moment the daemon does
    /// not re-evaluate at.
    var windowExitStacks: Set<String> = []
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
        racyStacks = []
        windowExitStacks = []
        evaluations.removeAll { $0.date < now }
        rotations.removeAll { $0.date < now }
        self.tracing = tracing
        trace = []
    }

    /// Whether the model evaluated `stack` at `date` with these ranks (to 1e-9).
    func evaluated(_ stack: String, at date: Seconds, ranks: [String: Double]) -> Bool {
        evaluations.contains { evaluation in
            evaluation.stack == stack && evaluation.date == date && evaluation.ranks.keys.sorted() == ranks.keys.sorted()
                && evaluation.ranks.allSatisfy { abs($0.value - (ranks[$0.key] ?? .nan)) < 1e-9 }
        }
    }
}
