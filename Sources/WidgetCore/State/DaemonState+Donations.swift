import Foundation

extension DaemonState {
    /// Records a donation; beyond max-donations the oldest go in the same change. Answers the
    /// instances whose configuration it matches, and evaluates the stacks that hold them.
    public mutating func planDonate(
        _ donation: Donation, at now: Date, reserved: LimitReservations
    ) throws(StateError) -> (plan: Plan, matched: [InstanceID]) {
        guard !donation.intentType.isEmpty else { throw .invalidParams("params.intentType: required non-empty string") }
        do { try settings.limits.checkDonation(donation) } catch { throw .limitExceeded(error) }
        // Numbered after every donation so far; the log numbers it again when it is recorded.
        let local = LocalDonation(donation, time: localTime(donation.date), order: .max)
        let limit = settings.limits.maxDonations
        var plan = Plan()
        plan.store.append(.putDonation(donation))
        if donations.count + reserved.donations + 1 > limit {
            plan.store.append(.pruneDonations(keep: limit))
        }
        plan.keys.share(.donations)
        plan.reservation.donations = 1
        let matched = instances(matching: donation)
        let stacked = matched.filter(stacks.isStacked)
        let zone = calendar.timeZone
        plan.effect { state in
            // Its local time was read when planned, unless the time zone changed since.
            let entry = state.donations.add(zone == state.calendar.timeZone ? local : LocalDonation(donation, calendar: state.calendar))
            for id in stacked {
                state.instances.update(id) { record in
                    record.matched.insert(entry, at: DonationLog.insertionIndex(of: entry, in: record.matched))
                }
            }
            state.trimDonations()
        }
        var inputs: [InstanceID: RankingInput] = [:]
        var evaluated = Set<String>()
        for id in stacked {
            guard let record = instances[id] else { continue }
            var matches = record.matched
            matches.insert(local, at: DonationLog.insertionIndex(of: local, in: matches))
            inputs[id] = RankingInput(instance: id, history: record.relevance, matchedDonations: matches)
            evaluated.formUnion(stacks.containing(id))
        }
        evaluate(evaluated.sorted(), at: now, inputs: inputs, into: &plan)
        return (plan, matched)
    }

    /// Which donations `donations.delete` removes.
    public enum DonationSelector: Sendable, Hashable {
        case id(String)
        case group(String)
        case all
    }

    /// Deletes donations; from a kind's owner (`onlyKinds`), only those of intent types that
    /// no other kind declares. Their influence goes at once: the stacks of the instances they
    /// matched are evaluated without them.
    public func planDeleteDonations(
        _ selector: DonationSelector, onlyKinds: Set<String>?, at now: Date
    ) -> (plan: Plan, deleted: Int) {
        let chosen: @Sendable (Donation) -> Bool = switch selector {
        case .id(let id): { $0.id == id }
        case .group(let group): { $0.group == group }
        case .all: { _ in true }
        }
        let types = onlyKinds.map { AccessPolicy.intentTypes(within: $0, declarations: intentDeclarations()) }
        let selected: @Sendable (Donation) -> Bool = { donation in
            (types?.contains(donation.intentType) ?? true) && chosen(donation)
        }
        let all = donations.all
        let deleted = all.filter { selected($0.donation) }
        var plan = Plan()
        plan.keys.take(.donations)
        // The store deletes by id, group or all; what the owner's scope keeps of that goes back
        // in the same transaction.
        let (id, group): (String?, String?) = switch selector {
        case .id(let id): (id, nil)
        case .group(let group): (nil, group)
        case .all: (nil, nil)
        }
        plan.store.append(.deleteDonations(id: id, group: group))
        if onlyKinds != nil {
            for entry in all where chosen(entry.donation) && !selected(entry.donation) {
                plan.store.append(.putDonation(entry.donation))
            }
        }
        let gone = Set(deleted.map(\.order))
        let affected = affectedStacked(by: deleted.map(\.donation))
        plan.effect { state in
            state.donations.delete { donation in selected(donation) }
            for id in affected {
                state.instances.update(id) { $0.matched.removeAll { gone.contains($0.order) } }
            }
        }
        var inputs: [InstanceID: RankingInput] = [:]
        var evaluated = Set<String>()
        for id in affected {
            guard let record = instances[id] else { continue }
            let kept = record.matched.filter { !selected($0.donation) }
            inputs[id] = RankingInput(instance: id, history: record.relevance, matchedDonations: kept)
            evaluated.formUnion(stacks.containing(id))
        }
        evaluate(evaluated.sorted(), at: now, inputs: inputs, into: &plan)
        return (plan, deleted.count)
    }

    /// Every (intent type, kind) pair the descriptors declare.
    /// The donations retained, oldest first: those of `intentType` when given, and for a
    /// caller limited to `onlyKinds`, those of the intent types its kinds declare.
    public func listDonations(intentType: String?, onlyKinds: Set<String>?) -> [Donation] {
        let declared = onlyKinds.map { kinds in
            Set(intentDeclarations().filter { kinds.contains($0.kind) }.map(\.intentType))
        }
        let entries = intentType.map { donations.entries(ofType: $0) } ?? donations.all
        return entries.map(\.donation).filter { declared?.contains($0.intentType) ?? true }
    }

    public func intentDeclarations() -> [(intentType: String, kind: String)] {
        descriptors.values.compactMap { descriptor in descriptor.intent.map { ($0.type, descriptor.kind) } }
    }

    /// Instances whose configuration `donation` matches (docs/smart-stacks.md), by id.
    func instances(matching donation: Donation) -> [InstanceID] {
        instances.matching(donation).sorted()
    }

    /// The donations an instance's configuration matches, oldest first.
    func matches(for record: InstanceRecord) -> [LocalDonation] {
        guard let schema = descriptors[record.kind]?.intent else { return [] }
        return donations.entries(ofType: schema.type).filter { entry in
            entry.donation.matches(schema, configuration: record.instance.configuration)
        }
    }

    /// Drops the oldest donations beyond max-donations, as the store's retention does. Their
    /// influence goes at once, as a deletion's does.
    mutating func trimDonations() {
        let dropped = donations.trim(to: settings.limits.maxDonations)
        guard !dropped.isEmpty else { return }
        let gone = Set(dropped.map(\.order))
        for id in affectedStacked(by: dropped.map(\.donation)) {
            instances.update(id) { $0.matched.removeAll { gone.contains($0.order) } }
            dirtyStacks.formUnion(stacks.containing(id))
        }
    }

    /// Stacked instances whose matches include any of `gone`.
    private func affectedStacked(by gone: [Donation]) -> [InstanceID] {
        guard !gone.isEmpty else { return [] }
        var ids = Set<InstanceID>()
        for donation in Set(gone) {
            for id in instances(matching: donation) where stacks.isStacked(id) { ids.insert(id) }
        }
        return ids.sorted()
    }

    /// Recomputes the matched donations of every instance in a stack (descriptors or the time
    /// zone changed).
    mutating func refreshAllMatches() {
        for name in stacks.names {
            for id in stacks[name]?.instances ?? [] {
                guard let record = instances[id] else { continue }
                let matched = matches(for: record)
                if matched != record.matched { instances.update(id) { $0.matched = matched } }
            }
        }
    }
}
