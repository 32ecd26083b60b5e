/// A reference model of widgetd's rules, written from the README for clarity, not speed:
/// arrays and loops, no heaps, no code shared with the daemon. It predicts, after every
/// operation, each instance's current entry, its pending reload, its budget and each
/// stack's top.
struct WidgetModel: Sendable {
    private(set) var now: Seconds
    /// In the order of their adds.
    private(set) var instances: [ModelInstance] = []
    private(set) var stacks: [ModelStack] = []
    /// Oldest first (of equal dates, in the order donated).
    private(set) var donations: [ModelDonation] = []
    /// Each instance's matching donations: they change only with donations and configurations.
    private var matched: [String: [ModelDonation]] = [:]
    private var added = 0
    /// What the current step saw, for telling known causes of a disagreement.
    private(set) var notes = ModelStepNotes()

    init(start: Seconds) { now = start }

    /// Starts a step.
    mutating func beginStep(tracing: Bool = false) { notes.begin(at: now, tracing: tracing) }

    /// Takes the stack's state as the daemon shows it, with the rotations it logged at the
    /// instants of this step, after a disagreement the test knows the cause of.
    mutating func replaceStack(_ stack: ModelStack, rotated: [(date: Seconds, to: String)]) {
        guard let index = stacks.firstIndex(where: { $0.name == stack.name }) else { return }
        stacks[index] = stack
        notes.rotations.removeAll { $0.stack == stack.name }
        notes.rotations += rotated.map { ($0.date, stack.name, $0.to) }
    }

    func instance(named name: String) -> ModelInstance? { instances.first { $0.name == name } }
    func instance(id: String) -> ModelInstance? { instances.first { $0.id == id } }
    func stack(_ name: String) -> ModelStack? { stacks.first { $0.name == name } }

    /// The name the next add gets.
    var nextName: String { "i\(added + 1)" }

    // MARK: Requests. Each changes the state at `now`, then the stacks are evaluated, then
    // everything the change made due now (a first load, a configuration's reload) is carried out.

    mutating func add(id: String, kind: ModelKind, family: String, config: ModelConfig, stack: String?) {
        added += 1
        var instance = ModelInstance(id: id, name: "i\(added)", kind: kind, family: family, config: config)
        // The first load is exempt from the budget and due at once.
        if kind.providerKey != nil { instance.ask(.initial, at: now) }
        instances.append(instance)
        if let stack { change(stack) { $0.append(id) } }
        matchDonations()
        settle()
    }

    mutating func remove(_ id: String) {
        instances.removeAll { $0.id == id }
        let now = self.now
        for index in stacks.indices { stacks[index].remove(id, at: now) }
        settle()
    }

    /// Merges the values given into the configuration; the reload that follows is exempt.
    mutating func configure(_ id: String, topic: Int?, mode: Int?) {
        let now = self.now
        change(instance: id) { instance in
            if let topic { instance.config.topic = topic }
            if let mode { instance.config.mode = mode }
            if instance.kind.providerKey != nil { instance.ask(.configuration, at: now) }
        }
        matchDonations()
        settle()
    }

    mutating func push(_ id: String, _ timeline: ModelTimeline) {
        let now = self.now
        change(instance: id) { $0.install(timeline, at: now, fromProvider: false) }
        settle()
    }

    /// `reloadTimelines(ofKind:)` / `reloadAllTimelines()`: every instance of those kinds
    /// with a provider is due now (the budget may defer it).
    mutating func reload(_ kinds: Set<ModelKind>, userInitiated: Bool) {
        let now = self.now
        for index in instances.indices where kinds.contains(instances[index].kind) && instances[index].kind.providerKey != nil {
            instances[index].ask(userInitiated ? .userInitiated : .requested, at: now)
        }
        settle()
    }

    mutating func donate(_ donation: ModelDonation) {
        donations.insert(donation, at: donations.firstIndex { $0.date > donation.date } ?? donations.count)
        matchDonations()
        settle()
    }

    mutating func deleteDonations(group: String) {
        donations.removeAll { $0.group == group }
        matchDonations()
        settle()
    }

    mutating func createStack(_ name: String, smartRotate: Bool) {
        stacks.append(ModelStack(name: name, smartRotate: smartRotate))
    }

    mutating func addToStack(_ name: String, _ id: String) {
        change(name) { $0.append(id) }
        settle()
    }

    mutating func swipe(_ name: String, to id: String) {
        let now = self.now
        change(name) { $0.swipe(to: id, at: now) }
        settle()
    }

    mutating func setSmartRotate(_ name: String, _ on: Bool) {
        change(name) { $0.smartRotate = on }
        settle()
    }

    /// The virtual clock moves to `target`: everything due on the way happens at its own
    /// instant, in order. At each instant the reloads due are launched and answered first,
    /// then the stacks are evaluated.
    mutating func advance(to target: Seconds) {
        while true {
            launchDue()
            evaluateStacks()
            guard let next = nextInstant(), next <= target else { break }
            now = next
        }
        now = max(now, target)
    }

    // MARK: Internals

    private mutating func matchDonations() {
        matched = [:]
        for instance in instances {
            matched[instance.id] = donations.filter { $0.matches(instance.kind, instance.config) }
        }
    }

    /// A request's own evaluation, then what it made due now.
    private mutating func settle() {
        evaluateStacks()
        advance(to: now)
    }

    private mutating func change(instance id: String, _ body: (inout ModelInstance) -> Void) {
        guard let index = instances.firstIndex(where: { $0.id == id }) else { return }
        body(&instances[index])
    }

    private mutating func change(_ stack: String, _ body: (inout ModelStack) -> Void) {
        guard let index = stacks.firstIndex(where: { $0.name == stack }) else { return }
        body(&stacks[index])
    }

    /// Launches every provider with a reload due now. One launch per provider takes every
    /// instance of it wanted within the coalescing window that the budget lets run now; budgeted
    /// reloads are charged now. Each answer is the provider's timeline at `now`.
    private mutating func launchDue() {
        let now = self.now
        let dueProviders = Set(instances.filter { ($0.pending?.due ?? .max) <= now }.compactMap(\.kind.providerKey))
        noteRacyStacks(launching: dueProviders)
        for key in dueProviders.sorted() {
            let members = instances.indices.filter { index in
                let instance = instances[index]
                guard instance.kind.providerKey == key, let pending = instance.pending else { return false }
                return pending.wanted <= now + ModelWidgets.coalescingWindow && instance.due(pending.reason, wanted: now) <= now
            }
            for index in members {
                let reason = instances[index].pending!.reason
                instances[index].request = nil
                instances[index].policyDue = nil
                if !reason.isExempt { instances[index].budgeted.append(now) }
                let answer = ModelWidgets.answer(instances[index].kind, instances[index].config, now: now)
                instances[index].install(answer, at: now, fromProvider: true)
            }
        }
    }

    /// The daemon launches one provider process per kind, family and configuration, and
    /// applies each answer as it lands. A stack is evaluated as soon as it has a reason to be,
    /// so one whose members are launched now may be evaluated before all of them have landed:
    /// when they are in different launches, or when something else changed the stack now.
    private mutating func noteRacyStacks(launching providers: Set<String>) {
        guard !providers.isEmpty else { return }
        let launched = instances.filter { instance in
            guard let key = instance.kind.providerKey, providers.contains(key), let pending = instance.pending else { return false }
            return pending.wanted <= now + ModelWidgets.coalescingWindow && instance.due(pending.reason, wanted: now) <= now
        }
        for stack in stacks {
            let members = launched.filter { stack.instances.contains($0.id) }
            guard !members.isEmpty else { continue }
            let launches = Set(members.map { "\($0.kind.rawValue) \($0.family) \($0.config)" })
            if launches.count > 1 || changes(of: stack, at: now).contains(now) { notes.racyStacks.insert(stack.name) }
        }
    }

    /// Every stack decides its top now. Deciding where nothing changed decides nothing, so
    /// the model may evaluate more often than the daemon without disagreeing with it.
    private mutating func evaluateStacks() {
        for index in stacks.indices {
            let candidates = candidates(of: stacks[index])
            // A score that left the window this second and, by leaving, changed a member's rank.
            let exits = stacks[index].instances.contains { id in
                guard let relevance = instance(id: id)?.relevance,
                    relevance.all.contains(where: { $0.date + ModelWidgets.relevanceWindow + 1 == now })
                else { return false }
                return relevance.relative(at: now, window: ModelWidgets.relevanceWindow)
                    != relevance.relative(at: now, window: ModelWidgets.relevanceWindow + 1)
            }
            if exits { notes.windowExitStacks.insert(stacks[index].name) }
            let top = stacks[index].top
            if stacks[index].evaluate(candidates, at: now) {
                notes.rotations.append((now, stacks[index].name, stacks[index].top ?? "-"))
            }
            notes.evaluations.append(.init(
                date: now, stack: stacks[index].name, ranks: Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0.rank) })))
            if notes.tracing {
                let names = Dictionary(uniqueKeysWithValues: instances.map { ($0.id, $0.name) })
                let name = { (id: String?) in id.flatMap { names[$0] } ?? "-" }
                let ranks = candidates.map { "\(name($0.id))=\($0.eligible ? String(format: "%.3f", $0.rank) : "x")" }
                notes.trace.append("\(ModelTime.iso(now)) \(stacks[index].name) \(name(top)) -> \(name(stacks[index].top)) \(ranks.joined(separator: " "))")
            }
        }
    }

    /// The stack's instances ranked now, in stack order: rank = relevance weight × relative
    /// relevance + affinity weight × donation affinity; a score <= 0 in force is ineligible.
    func candidates(of stack: ModelStack) -> [ModelStack.Candidate] {
        stack.instances.compactMap { id -> ModelStack.Candidate? in
            guard let instance = instance(id: id) else { return nil }
            let score = instance.relevance.inForce(at: now)?.score
            let eligible = (score ?? 1) > 0
            let relative = instance.relevance.relative(at: now, window: ModelWidgets.relevanceWindow)
            let donations = matched[id] ?? []
            let affinity = donations.isEmpty ? 0 : ModelAffinity.value(donations, at: now)
            let rank = eligible ? ModelWidgets.relevanceWeight * relative + ModelWidgets.affinityWeight * affinity : 0
            return ModelStack.Candidate(id: id, eligible: eligible, rank: rank)
        }
    }

    /// The next instant after `now` at which anything may happen: a reload coming due, an
    /// entry, a score starting, lapsing or leaving the window, an affinity slot, or a dwell,
    /// hold or hourly cap ending.
    private func nextInstant() -> Seconds? {
        var times = instances.compactMap { $0.pending?.due }.filter { $0 > now }
        for stack in stacks { times += changes(of: stack, at: now + 1) }
        return times.min()
    }

    /// When the stack's decision may change by itself, at or after `start`: an entry of a
    /// member, a score starting, lapsing or leaving the window, an affinity slot of a member
    /// with matching donations, or a dwell, hold or hourly cap ending.
    private func changes(of stack: ModelStack, at start: Seconds) -> [Seconds] {
        var times = stack.gates(after: start - 1)
        for id in stack.instances {
            guard let instance = instance(id: id) else { continue }
            times += (instance.timeline?.entries ?? []).map(\.date)
            times += instance.relevance.changes(after: start - 1, window: ModelWidgets.relevanceWindow)
            if !(matched[id] ?? []).isEmpty {
                times.append(ModelTime.slotStart(start - 1) + 900)
            }
        }
        return times.filter { $0 >= start }
    }
}
