import Foundation
import Logging
import WidgetCore
import WidgetProtocol
import WidgetStore

extension Engine {
    /// What ranking needs of each instance of the stack, in stack order.
    func rankingInputs(_ state: StackState) -> [RankingInput] {
        state.instances.compactMap { id -> RankingInput? in
            guard let instance = instances[id] else { return nil }
            return RankingInput(instance: id, history: relevance[id] ?? RelevanceHistory(), matchedDonations: matchedDonations(instance))
        }
    }

    /// The stack's candidates ranked at `now`, in stack order.
    func rankedCandidates(_ state: StackState, at now: Date) -> [RankedCandidate] {
        rank(rankingInputs(state), at: now)
    }

    private func rank(_ inputs: [RankingInput], at now: Date) -> [RankedCandidate] {
        StackRanking.rank(inputs, at: now, settings: rotationSettings, affinity: affinityModel, calendar: calendar)
    }

    /// The donations that match the instance. Matching every donation against every instance
    /// of a stack at every evaluation was most of the daemon's time in the simulated day, so
    /// the answer is kept until the donations, the configuration or the kind's schema change.
    func matchedDonations(_ instance: WidgetInstance) -> [LocalDonation] {
        guard let schema = catalog[instance.kind]?.intent else { return [] }
        if let cached = matchedDonationCache[instance.id], cached.generation == donationGeneration,
            cached.schema == schema, cached.configuration == instance.configuration
        {
            return cached.donations
        }
        let matched = donations.filter { $0.donation.matches(schema, configuration: instance.configuration) }
        matchedDonationCache[instance.id] = MatchedDonations(
            generation: donationGeneration, schema: schema, configuration: instance.configuration, donations: matched)
        return matched
    }

    /// Re-evaluates every stack something has touched since the last evaluation.
    func evaluateDirtyStacks() async {
        while let name = dirtyStacks.popFirst() {
            await evaluateStack(name)
        }
    }

    /// Decides a stack's top now; stores and logs a decision, and notes when time alone can
    /// next change the answer (a relevance lapsing or starting, an affinity slot, the dwell,
    /// hold or hourly cap ending) so the scheduler loop wakes exactly then.
    func evaluateStack(_ name: String) async {
        try? await withInstanceLock(Self.stackLockKey(name)) { () async throws(RPCError) -> Void in
            guard var state = stacks[name] else { return }
            let now = self.now
            let inputs = rankingInputs(state)
            let before = state
            let (decision, recheck) = StackRotation.evaluate(&state, candidates: rank(inputs, at: now), at: now, settings: rotationSettings)
            var times: [Date?] = [recheck]
            for input in inputs {
                times.append(input.history.nextChange(after: now))
                if !input.matchedDonations.isEmpty { times.append(affinityModel.nextChange(after: now)) }
            }
            stackRecheck[name] = times.compactMap { $0 }.filter { $0 > now }.min()
            guard state != before || decision != nil else { return }
            var changes: [StoreChange] = [.putStack(state)]
            if let decision {
                // Trimmed with every decision, so the log never holds more than max-log-rows.
                changes.append(.appendDecision(decision))
                changes.append(.pruneDecisions(keep: settings.limits.maxLogRows))
            }
            // A decision that cannot be stored is not made: the stack keeps its top.
            try await commit(changes)
            stacks[name] = state
            if let decision {
                log(decision)
                events.publish(WidgetEvent(type: .rotation, date: now, decision: decision, stack: StackInfo(state)))
            }
        }
    }

    /// To the journal with structured fields (STACK, FROM, TO, REASON, CANDIDATES as JSON).
    private func log(_ decision: RotationDecision) {
        let candidates = (try? WidgetJSON.encoder.encode(decision.candidates)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        logger.info(
            decision.to == nil ? "rotation held back" : "stack rotated",
            metadata: [
                "stack": "\(decision.stack)", "from": "\(decision.from ?? "")", "to": "\(decision.to ?? "")",
                "candidate": "\(decision.candidate)", "reason": "\(decision.reason.rawValue)", "candidates": "\(candidates)",
            ])
    }

    // MARK: Donations

    public func donate(_ params: DonateParams) async throws(RPCError) -> DonateResult {
        guard !params.intentType.isEmpty else { throw .invalidParams("params.intentType: required non-empty string") }
        let donation = Donation(
            intentType: params.intentType, parameters: params.parameters ?? [:], date: params.date ?? now, id: params.id,
            group: params.group)
        // Beyond max-donations the oldest go in the same transaction as the new one.
        var changes: [StoreChange] = [.putDonation(donation)]
        if donations.count + reserved.donations + 1 > settings.limits.maxDonations {
            changes.append(.pruneDonations(keep: settings.limits.maxDonations))
        }
        try await commit(changes, holding: \.donations)
        retain(LocalDonation(donation, calendar: calendar))
        donationGeneration += 1
        let matched = instances.values.filter { instance in
            catalog[instance.kind]?.intent.map { donation.matches($0, configuration: instance.configuration) } ?? false
        }.map(\.id).sorted()
        for id in matched { dirtyStacks.formUnion(stacks(containing: id)) }
        await evaluateDirtyStacks()
        // A new affinity slot may move a stack's re-check before the loop's wake-up.
        scheduleChanged()
        return DonateResult(matched: matched)
    }

    /// Deletes donations; from a kind's owner (`onlyKinds`), only those of intent types that
    /// no other kind declares.
    public func deleteDonations(
        _ params: DonationsDeleteParams, onlyKinds: Set<String>? = nil
    ) async throws(RPCError) -> DonationsDeleteResult {
        let chosen: (Donation) -> Bool
        switch (params.id, params.group, params.all ?? false) {
        case (let id?, nil, false): chosen = { $0.id == id }
        case (nil, let group?, false): chosen = { $0.group == group }
        case (nil, nil, true): chosen = { _ in true }
        default: throw .invalidParams("params: give exactly one of id, group or all")
        }
        var selected = chosen
        if let onlyKinds {
            let types = AccessPolicy.intentTypes(within: onlyKinds, declarations: intentDeclarations())
            selected = { types.contains($0.intentType) && chosen($0) }
        }
        let deleted = donations.map(\.donation).filter(selected)
        // The store deletes by id, group or all; what the owner's scope keeps of that goes back
        // in the same transaction.
        let kept = onlyKinds == nil ? [] : donations.map(\.donation).filter { chosen($0) && !selected($0) }
        try await commit([.deleteDonations(id: params.id, group: params.group)] + kept.map { .putDonation($0) })
        donations.removeAll { selected($0.donation) }
        donationGeneration += 1
        // Deletion removes their influence at once.
        for instance in instances.values where !deleted.isEmpty {
            if let schema = catalog[instance.kind]?.intent, deleted.contains(where: { $0.matches(schema, configuration: instance.configuration) }) {
                dirtyStacks.formUnion(stacks(containing: instance.id))
            }
        }
        await evaluateDirtyStacks()
        scheduleChanged()
        return DonationsDeleteResult(deleted: deleted.count)
    }

    // MARK: Log and explain

    public func decisionLog(_ params: LogParams) async throws(RPCError) -> [RotationDecision] {
        let limit = params.limit ?? 100
        guard limit > 0, limit <= 100_000 else { throw .invalidParams("params.limit: 1...100000") }
        do {
            return try await store.decisions(stack: params.stack, since: params.since, limit: limit)
        } catch {
            throw .storageFailure("\(error)")
        }
    }

    public func explain(_ params: StackNameParams) throws(RPCError) -> Explanation {
        let state = try stack(params.name)
        let now = self.now
        let candidates = rankedCandidates(state, at: now)
        let settings = rotationSettings
        let best = candidates.filter { $0.hasSignal(settings) }.max { $0.rank < $1.rank }
        let top = candidates.first { $0.instance == state.top }
        let why: String
        if !state.smartRotate {
            why = "Smart Rotate is off: the top changes only when the user swipes."
        } else if let hold = state.holdUntil, now < hold {
            why = "The user chose \(state.top ?? "-"); Smart Rotate holds off until \(ISO8601.string(from: hold))."
        } else if let best {
            if best.instance == state.top {
                why = "\(best.instance) ranks best (\(Self.format(best.rank)))."
            } else if let since = state.topSince, now < since.addingTimeInterval(settings.minimumDwell) {
                why = "\(best.instance) ranks best (\(Self.format(best.rank))) but the top stays until \(ISO8601.string(from: since.addingTimeInterval(settings.minimumDwell))) (minimum dwell)."
            } else if state.rotations.filter({ $0 > now.addingTimeInterval(-3600) }).count >= settings.hourlyCap {
                why = "\(best.instance) ranks best (\(Self.format(best.rank))); the hourly cap of \(settings.hourlyCap) rotations holds it back."
            } else if best.rank < (top?.rank ?? 0) + settings.margin {
                why = "\(best.instance) ranks best (\(Self.format(best.rank))) but does not beat the top (\(Self.format(top?.rank ?? 0))) by the margin \(Self.format(settings.margin))."
            } else {
                why = "\(best.instance) ranks best (\(Self.format(best.rank))) and rotates in at the next evaluation."
            }
        } else {
            why = "No instance has a signal (relevance or donations): the top is the user's choice, \(state.home ?? "-")."
        }
        return Explanation(
            stack: state.name, top: state.top, now: now, smartRotate: state.smartRotate, candidates: candidates,
            best: best?.instance, why: why)
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// An instance's matching donations and what they were matched against.
struct MatchedDonations {
    var generation: Int
    var schema: IntentSchema
    var configuration: [String: JSONValue]
    var donations: [LocalDonation]
}
