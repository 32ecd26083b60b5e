/// Why a reload happens; the first three are exempt from the budget.
enum ModelReason: String, Sendable {
    case initial, configuration, userInitiated, requested, policy

    var isExempt: Bool { self == .initial || self == .configuration || self == .userInitiated }
}

/// A reload waiting to run: what wanted it, when, and when the budget lets it run.
struct ModelPending: Equatable, Sendable {
    var reason: ModelReason
    var wanted: Seconds
    var due: Seconds
}

/// One placed widget with everything the rules need of it.
struct ModelInstance: Sendable {
    var id: String
    /// `i1`, `i2`, ... in the order of the adds: what reports print instead of random ids.
    var name: String
    var kind: ModelKind
    var family: String
    var config: ModelConfig
    var timeline: ModelTimeline?
    var relevance = ModelRelevance()
    /// The reload asked for (first load, configuration, app or user), if any.
    var request: (reason: ModelReason, wanted: Seconds)?
    /// When the timeline's policy wants new data.
    var policyDue: Seconds?
    /// Budgeted reloads, oldest first.
    var budgeted: [Seconds] = []

    /// The earliest moment one more budgeted reload is allowed: the spacing after the last,
    /// and once the oldest of the last `daily-limit` has left the 24 hours. Nil: now.
    var nextAllowed: Seconds? {
        guard let last = budgeted.last else { return nil }
        var earliest = last + ModelWidgets.spacing
        if budgeted.count >= ModelWidgets.dailyLimit {
            earliest = max(earliest, budgeted[budgeted.count - ModelWidgets.dailyLimit] + ModelTime.day)
        }
        return earliest
    }

    /// When a reload for `reason` wanted at `wanted` may run: exempt ones at once, budgeted
    /// ones deferred to the first allowed moment.
    func due(_ reason: ModelReason, wanted: Seconds) -> Seconds {
        guard !reason.isExempt, let allowed = nextAllowed else { return wanted }
        return max(wanted, allowed)
    }

    /// The reload that runs next: the request, or the policy when the budget lets it run
    /// strictly earlier. Nothing for a push-only kind.
    var pending: ModelPending? {
        guard kind.providerKey != nil else { return nil }
        var best = request.map { ModelPending(reason: $0.reason, wanted: $0.wanted, due: due($0.reason, wanted: $0.wanted)) }
        if let policyDue {
            let policy = ModelPending(reason: .policy, wanted: policyDue, due: due(.policy, wanted: policyDue))
            if best == nil || policy.due < best!.due { best = policy }
        }
        return best
    }

    /// Duplicate requests collapse: the one that can run first stays, an exempt one at equal
    /// times (the daemon's code; docs/overview.md says only that they collapse into one).
    mutating func ask(_ reason: ModelReason, at now: Seconds) {
        if let old = request {
            let oldDue = due(old.reason, wanted: old.wanted)
            let newDue = due(reason, wanted: now)
            guard newDue < oldDue || (newDue == oldDue && reason.isExempt && !old.reason.isExempt) else { return }
        }
        request = (reason, now)
    }

    /// A timeline arrives at `now`, from the provider or pushed.
    mutating func install(_ timeline: ModelTimeline, at now: Seconds, fromProvider: Bool) {
        self.timeline = timeline
        relevance.install(timeline, at: now)
        guard kind.providerKey != nil, var date = timeline.policyDate(receivedAt: now) else {
            policyDue = nil
            return
        }
        // A provider whose policy is already due when it answers is reloaded after the minimum
        // spacing, not in a loop; a pushed timeline is taken literally.
        if fromProvider && date <= now { date = now + max(ModelWidgets.spacing, 1) }
        policyDue = date
    }

    /// Budgeted reloads in the 24 hours up to `now`.
    func used(at now: Seconds) -> Int {
        budgeted.count { $0 > now - ModelTime.day && $0 <= now }
    }
}
