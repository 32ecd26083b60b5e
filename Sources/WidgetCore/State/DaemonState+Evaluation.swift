import Foundation

extension DaemonState {
    /// Evaluates `names` at `now` into `plan`: decides each stack's top, stores and logs a
    /// decision, and notes when time alone can next change the answer (a relevance lapsing or
    /// starting, an affinity slot, the dwell, hold or hourly cap ending).
    ///
    /// `stacks` and `inputs` are what the plan itself changes: a stack's new state, and the
    /// ranking inputs of instances whose timeline or matches change. Everything else is read
    /// from the state as stored. A stack whose state differs from the stored one is stored.
    func evaluate(
        _ names: [String], at now: Date, stacks overrides: [String: StackState] = [:],
        inputs changed: [InstanceID: RankingInput] = [:], into plan: inout Plan
    ) {
        // Each stack is worked out from the state as stored and nothing else, so the stacks of
        // a busy wake-up (every stack at an hour's entry change, most at an affinity slot) are
        // worked out on all cores; the plan takes them in name order whatever the cores did.
        // Every stack ranks at the same `now`: the slot's local time is read once per thread.
        let outcomes = ParallelMap.map(names, makeScratch: { LocalTime?.none }) { name, slot in
            evaluation(of: name, at: now, overrides: overrides, changed: changed, slot: &slot)
        }
        var decided = false
        for outcome in outcomes {
            guard let outcome else { continue }
            let name = outcome.state.name
            plan.keys.take(.stack(name))
            if outcome.stateChanged {
                plan.store.append(.putStack(outcome.state))
                let stored = outcome.state
                plan.effect { $0.putStack(stored) }
            }
            let next = outcome.next
            if let read = outcome.read {
                plan.effect { state in
                    state.stacks.setRecheck(name, next)
                    state.rankingMemos[name] = read
                }
            } else {
                plan.effect { $0.stacks.setRecheck(name, next) }
            }
            guard let decision = outcome.decision else { continue }
            plan.store.append(.appendDecision(decision))
            plan.events.append(.rotation(decision, outcome.state))
            plan.notes.append(Self.note(decision))
            decided = true
        }
        // Trimmed in the same transaction as the decisions, so the log never holds more than
        // max-log-rows; once for them all, since a trim keeps the newest rows.
        if decided { plan.store.append(.pruneDecisions(keep: self.settings.limits.maxLogRows)) }
    }

    /// One stack's evaluation, worked out without changing anything.
    struct StackEvaluation: Sendable {
        /// The stack after it, with `stateChanged` when that differs from the stored one.
        var state: StackState
        var stateChanged: Bool
        var decision: RotationDecision?
        /// When time alone can next change the answer.
        var next: Date?
        /// What was read of the members' relevance, when read anew (to keep as the stack's memos).
        var read: [RankingMemo]?
    }

    /// Evaluates `name` (as `overrides` has it, else as stored) at `now`; nil for no such stack.
    /// `slot`: the slot's local time, read at most once per caller (see `StackRanking.rank`).
    private func evaluation(
        of name: String, at now: Date, overrides: [String: StackState], changed: [InstanceID: RankingInput],
        slot: inout LocalTime?
    ) -> StackEvaluation? {
        let settings = settings.rotation
        guard var state = overrides[name] ?? stacks[name] else { return nil }
        // A stack as stored holds only stacked instances, so their membership need not be
        // looked up; one the plan changes may be taking new ones.
        let stored = overrides[name] == nil
        let window = settings.relevanceWindow
        let kept = stored ? rankingMemos[name].flatMap { $0.count == state.instances.count ? $0 : nil } : nil
        // Most evaluations come from an affinity slot, with every member's relevance as it
        // was read last time: then the memos are used as they are, neither copied nor stored again.
        var memos: [RankingMemo]
        var fresh = false
        if let kept, changed.isEmpty || !state.instances.contains(where: { changed[$0] != nil }),
            // By index, not by element: a copy of each memo would retain what it holds.
            state.instances.indices.allSatisfy({ index in
                let id = state.instances[index]
                return instances.read(id) { kept[index].holds(for: id, stamp: $0.pointee.rankingStamp, at: now, window: window) } ?? false
            })
        {
            memos = kept
        } else {
            fresh = true
            memos = []
            memos.reserveCapacity(state.instances.count)
            for (index, id) in state.instances.enumerated() {
                if !changed.isEmpty, let input = changed[id] {
                    memos.append(RankingMemo(input, at: now, window: window, stamp: nil, reusable: false))
                } else if let memo = instances.read(id, { record -> RankingMemo in
                    let stamp = record.pointee.rankingStamp
                    if let kept, kept[index].holds(for: id, stamp: stamp, at: now, window: window) { return kept[index] }
                    return RankingMemo(rankingInput(record, stacked: stored), at: now, window: window, stamp: stamp, reusable: stored)
                }) {
                    memos.append(memo)
                }
            }
        }
        let candidates = memos.indices.map { index in
            StackRanking.candidate(
                memos[index].instance, current: memos[index].current, relative: memos[index].relative,
                matchedDonations: memos[index].matchedDonations, at: now, settings: settings, affinity: affinity, calendar: calendar,
                context: context, slot: &slot)
        }
        let (decision, recheck) = StackRotation.evaluate(&state, candidates: candidates, at: now, settings: settings)
        // The earliest of these after `now`.
        var earliest: Date?
        func consider(_ time: Date?) {
            if let time, time > now, earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        consider(recheck)
        for index in memos.indices {
            consider(memos[index].until)
            if !memos[index].matchedDonations.isEmpty { consider(affinity.nextChange(after: now)) }
        }
        return StackEvaluation(
            state: state, stateChanged: state != stacks[name], decision: decision, next: earliest, read: fresh ? memos : nil)
    }

    /// What ranking needs of an instance: its relevance history and matched donations (read
    /// from the record when it is in a stack, matched now when it is joining one).
    func rankingInput(_ record: InstanceRecord) -> RankingInput {
        RankingInput(
            instance: record.id, history: record.relevance,
            matchedDonations: stacks.isStacked(record.id) ? record.matched : matches(for: record))
    }

    /// The same, taking only those fields from the record where it lies (see `InstanceBook.read`);
    /// `stacked` when the caller knows the instance is in a stack.
    func rankingInput(_ record: UnsafePointer<InstanceRecord>, stacked: Bool = false) -> RankingInput {
        let id = record.pointee.id
        guard stacked || stacks.isStacked(id) else { return rankingInput(record.pointee) }
        return RankingInput(instance: id, history: record.pointee.relevance, matchedDonations: record.pointee.matched)
    }

    /// A stack's candidates ranked at `now`, in stack order.
    public func rankedCandidates(_ state: StackState, at now: Date) -> [RankedCandidate] {
        let inputs = state.instances.compactMap { instances[$0].map(rankingInput) }
        return StackRanking.rank(inputs, at: now, settings: settings.rotation, affinity: affinity, calendar: calendar, context: context)
    }

    /// To the journal with structured fields (STACK, FROM, TO, REASON, CANDIDATES as JSON).
    static func note(_ decision: RotationDecision) -> Note {
        Note(
            level: .info, message: decision.to == nil ? "rotation held back" : "stack rotated",
            metadata: [
                "stack": decision.stack, "from": decision.from ?? "", "to": decision.to ?? "",
                "candidate": decision.candidate, "reason": decision.reason.rawValue,
                // The clue that made the candidate count, if any: a region only as the entry's.
                "clue": decision.candidates.first { $0.instance == decision.candidate }?.clue?.text ?? "",
                // Worked out only when the line is logged.
                "candidates": decision.candidatesJSON ?? "[]",
            ])
    }
}
