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
        let settings = settings.rotation
        var decided = false
        // Every stack ranks at the same `now`: the slot's local time is read once for them all.
        var slot: LocalTime?
        for name in names {
            guard var state = overrides[name] ?? stacks[name] else { continue }
            plan.keys.take(.stack(name))
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
                    slot: &slot)
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
            let next = earliest
            let read = fresh ? memos : nil
            if state != stacks[name] {
                plan.store.append(.putStack(state))
                let stored = state
                plan.effect { $0.putStack(stored) }
            }
            if let read {
                plan.effect { state in
                    state.stacks.setRecheck(name, next)
                    state.rankingMemos[name] = read
                }
            } else {
                plan.effect { $0.stacks.setRecheck(name, next) }
            }
            guard let decision else { continue }
            plan.store.append(.appendDecision(decision))
            plan.events.append(.rotation(decision, state))
            plan.notes.append(Self.note(decision))
            decided = true
        }
        // Trimmed in the same transaction as the decisions, so the log never holds more than
        // max-log-rows; once for them all, since a trim keeps the newest rows.
        if decided { plan.store.append(.pruneDecisions(keep: self.settings.limits.maxLogRows)) }
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
        return StackRanking.rank(inputs, at: now, settings: settings.rotation, affinity: affinity, calendar: calendar)
    }

    /// To the journal with structured fields (STACK, FROM, TO, REASON, CANDIDATES as JSON).
    static func note(_ decision: RotationDecision) -> Note {
        Note(
            level: .info, message: decision.to == nil ? "rotation held back" : "stack rotated",
            metadata: [
                "stack": decision.stack, "from": decision.from ?? "", "to": decision.to ?? "",
                "candidate": decision.candidate, "reason": decision.reason.rawValue,
                // Worked out only when the line is logged.
                "candidates": decision.candidatesJSON ?? "[]",
            ])
    }
}
