/// A reference model of widgetd's rules, written from docs/ for clarity, not speed:
/// arrays and loops, no heaps, no code shared with the daemon. It predicts, after every
/// operation, each instance's current entry, its pending reload, its budget and each
/// stack's top.
///
/// The requests are here; the clock's launches are in `WidgetModel+Launches.swift` and the
/// stacks' evaluations in `WidgetModel+Stacks.swift`, which change `instances`, `stacks` and
/// `notes` (hence their setters are not private).
struct WidgetModel: Sendable {
    private(set) var now: Seconds
    /// In the order of their adds.
    var instances: [ModelInstance] = []
    var stacks: [ModelStack] = []
    /// Oldest first (of equal dates, in the order donated).
    private(set) var donations: [ModelDonation] = []
    /// Each instance's matching donations: they change only with donations and configurations.
    private(set) var matched: [String: [ModelDonation]] = [:]
    /// The host's `room` context value (`context.set`); nil: not set.
    private(set) var room: String?
    private var added = 0
    /// What the current step saw, for telling known causes of a disagreement.
    var notes = ModelStepNotes()

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

    /// A host sets (or, with nil, removes) the `room` context value.
    mutating func setRoom(_ room: String?) {
        self.room = room
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
}
