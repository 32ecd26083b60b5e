import Foundation

/// `invalidateRelevance(ofKind:)`: fresh relevance from each instance's provider, without
/// new content, and the stacks ranked again (docs/smart-stacks.md, "Fresh relevance").
extension DaemonState {
    /// One instance whose provider is to be asked, with what tells, when its answer comes back,
    /// whether the content it was asked about is still the one shown.
    public struct RelevanceAsk: Sendable, Hashable {
        public var instance: InstanceID
        public var kind: String
        public var family: WidgetFamily
        public var configuration: [String: JSONValue]
        var replaced: UInt64
        var receivedAt: Date?
    }

    /// The instances of `kinds` whose providers may be asked now, and those left out because
    /// they were asked `relevance-per-hour` times in the last hour. Records the asks. An
    /// unknown kind, or one whose provider cannot be run, refuses the whole request; instances
    /// of a kind without a provider, or without a timeline yet, are not asked.
    public mutating func relevanceAsks(kinds: [String], at now: Date) throws(StateError) -> (asks: [RelevanceAsk], limited: [InstanceID]) {
        guard !kinds.isEmpty else { throw .invalidParams("params.kinds: name at least one kind") }
        for kind in kinds {
            guard let descriptor = descriptors[kind] else { throw .unknownKind(kind) }
            if let problem = descriptor.problem { throw .unusableKind(kind, problem: problem) }
        }
        var asks: [RelevanceAsk] = []
        var limited: [InstanceID] = []
        let hourAgo = now.addingTimeInterval(-3600)
        for kind in Set(kinds).sorted() where hasProvider(kind) {
            for id in scheduler.instances(ofKind: kind, in: instances).sorted() {
                guard let record = instances[id], let stored = record.timeline else { continue }
                var dates = record.relevanceAsks.filter { $0 > hourAgo && $0 <= now }
                guard dates.count < settings.relevancePerHour else {
                    limited.append(id)
                    continue
                }
                dates.append(now)
                instances.update(id) { $0.relevanceAsks = dates }
                asks.append(RelevanceAsk(
                    instance: id, kind: kind, family: record.instance.family, configuration: record.instance.configuration,
                    replaced: record.replaced, receivedAt: stored.receivedAt))
            }
        }
        return (asks, limited)
    }

    /// Installs the fresh relevance the providers gave, ranks the stacks holding those
    /// instances again, and says which answers were dropped: an instance removed, pushed to,
    /// configured or reloaded since it was asked shows other content than the answer was for.
    public func planFreshRelevance(
        _ answers: [(ask: RelevanceAsk, samples: [RelevanceSample])], at now: Date
    ) -> (Plan, installed: [InstanceID], dropped: [InstanceID]) {
        var plan = Plan()
        var installed: [InstanceID] = []
        var dropped: [InstanceID] = []
        var inputs: [InstanceID: RankingInput] = [:]
        var histories: [InstanceID: RelevanceHistory] = [:]
        for (ask, samples) in answers {
            guard let record = instances[ask.instance], record.replaced == ask.replaced,
                record.timeline?.receivedAt == ask.receivedAt,
                // Relevance naming a clue the kind does not declare is dropped whole.
                samples.allSatisfy({ $0.when.map { clueProblem($0, kind: record.kind) == nil } ?? true })
            else {
                dropped.append(ask.instance)
                continue
            }
            var history = record.relevance
            history.install(fresh: samples, at: now)
            history.prune(before: now.addingTimeInterval(-settings.rotation.relevanceWindow), now: now)
            let rows = history.settledChange(since: record.relevance)
            plan.store.append(.putFreshRelevance(ask.instance, history.timeline))
            if !rows.isEmpty { plan.store.append(.updateRelevance(ask.instance, rows)) }
            plan.keys.take(.instance(ask.instance))
            histories[ask.instance] = history
            inputs[ask.instance] = RankingInput(instance: ask.instance, history: history, matchedDonations: record.matched)
            installed.append(ask.instance)
            plan.note(.info, "relevance refreshed", ["instance": ask.instance, "samples": "\(samples.count)"])
        }
        let fresh = histories
        plan.effect { state in
            for (id, history) in fresh {
                state.instances.update(id) { $0.relevance = history }
            }
        }
        let names = Set(installed.flatMap { stacks.containing($0) }).sorted()
        evaluate(names, at: now, inputs: inputs, into: &plan)
        return (plan, installed, dropped)
    }
}
