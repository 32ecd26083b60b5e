import Foundation

/// What an instance's next reload is worked out from: its policy date, the request waiting for
/// a launch (requests merged into one), its budgeted reloads of the last 24 hours, and whether
/// a launch for it runs now. With since when no host has shown it (`InstanceRecord.hiddenSince`)
/// this is all the scheduler reads of an instance to place its reload.
///
/// Held by the instance's record (`InstanceRecord.timing`). Once the record is in the book it is
/// changed only by the scheduler through a `ReloadTimingStore`, so the date the schedule holds
/// is always the one these give.
/// The rules are pure functions of these values, the budget and the time passed in.
///
/// The optional dates are plain numbers with -infinity for "none" (no date is -infinity, and
/// unlike NaN it equals itself, so timings compare equal) and the request's reason a byte: a
/// timing is held for every instance, and an optional date would take twice the
/// room of its number.
public struct ReloadTiming: Sendable, Hashable {
    /// The instance's budgeted reloads in the last 24 hours.
    public internal(set) var history = BudgetHistory()
    private var policyDueSeconds = -Double.infinity
    private var requestSeconds = -Double.infinity
    private var requestReason: UInt8 = 0
    /// A launch for it runs now: its next reload waits for the answer.
    public internal(set) var inFlight = false

    public init(history: BudgetHistory = BudgetHistory()) {
        self.history = history
    }

    /// The date its timeline's policy wants the next reload (nil: `never`, or no timeline).
    public internal(set) var policyDue: Date? {
        get { policyDueSeconds == -.infinity ? nil : Date(timeIntervalSinceReferenceDate: policyDueSeconds) }
        set { policyDueSeconds = newValue?.timeIntervalSinceReferenceDate ?? -.infinity }
    }

    /// The request waiting for a launch, if any (a launch takes it when it starts).
    public internal(set) var request: (reason: ReloadReason, wanted: Date)? {
        get {
            guard requestSeconds != -.infinity else { return nil }
            return (Self.reasons[Int(requestReason)], Date(timeIntervalSinceReferenceDate: requestSeconds))
        }
        set {
            requestSeconds = newValue?.wanted.timeIntervalSinceReferenceDate ?? -.infinity
            requestReason = newValue.map { request in UInt8(Self.reasons.firstIndex(of: request.reason)!) } ?? 0
        }
    }

    /// What a new request for `reason` wanted at `wanted` and the one waiting collapse to: the
    /// one that can run first, an exempt one preferred at equal times.
    func merged(
        _ reason: ReloadReason, at wanted: Date, budget: ReloadBudget, hiddenSince: Date?
    ) -> (reason: ReloadReason, wanted: Date) {
        guard let old = request else { return (reason, wanted) }
        let oldDate = budget.effectiveDate(history, wanted: old.wanted, reason: old.reason, shown: hiddenSince)
        let newDate = budget.effectiveDate(history, wanted: wanted, reason: reason, shown: hiddenSince)
        if newDate < oldDate || (newDate == oldDate && reason.isExempt && !old.reason.isExempt) {
            return (reason, wanted)
        }
        return old
    }

    /// A launch takes the pending reload: it is in flight until the provider answers, and a
    /// budgeted one is charged to the budget now.
    mutating func take(_ reason: ReloadReason, at now: Date, budget: ReloadBudget) {
        inFlight = true
        request = nil
        policyDue = nil
        if budget.applies(to: reason) { history.record(now) }
    }

    /// The wall clock went back from `old` to `now` (`ReloadScheduler.clockSteppedBack`).
    mutating func clockSteppedBack(from old: Date, to now: Date) {
        history.clamp(notAfter: now)
        if let request, request.wanted > now, request.wanted <= old { self.request = (request.reason, now) }
        if let due = policyDue, due > now, due <= old { policyDue = now }
    }

    /// The reload that would run next, and when the budget lets it (nil: none wanted). The
    /// instance's id is for the session's hold: one a host shows is not held while locked.
    func pending(budget: ReloadBudget, hiddenSince shown: Date?, instance: InstanceID) -> PendingReload? {
        var best: PendingReload?
        if let request {
            best = PendingReload(
                reason: request.reason, wanted: request.wanted,
                effective: budget.effectiveDate(history, wanted: request.wanted, reason: request.reason, shown: shown))
        }
        if let due = policyDue {
            let policy = PendingReload(
                reason: .policy, wanted: due, effective: budget.effectiveDate(history, wanted: due, reason: .policy, shown: shown))
            if best == nil || policy.effective < best!.effective { best = policy }
        }
        if let pending = best {
            best?.hold = budget.hold(pending.reason, at: pending.effective, shown: shown, instance: instance)
        }
        return best
    }

    private static let reasons = ReloadReason.allCases
}
