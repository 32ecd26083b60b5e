import WidgetCore
@testable import WidgetTestSupport

/// Draws the model check's operations from a seeded generator, weighted, and always valid for
/// the model's state (an unknown instance or a full stack would only test error paths, which
/// `BadInputTests` covers).
struct ModelOpGenerator {
    private var random: SplitMix64
    private var pushes = 0
    private var donations = 0

    static let maxInstances = 9
    static let stackNames = ["s1", "s2", "s3"]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next(_ model: WidgetModel) -> ModelOp {
        let names = model.instances.map(\.name)
        let stacks = model.stacks
        var choices: [(weight: Double, make: (inout ModelOpGenerator) -> ModelOp)] = [
            (22, { $0.advance() }),
            (3, { $0.setClock(model.now) }),
            (6, { $0.reload() }),
            (2, { .reload(Array(ModelKind.allCases.shuffled(using: &$0.random).prefix(2)), userInitiated: true) }),
            (2, { .reloadAll(userInitiated: $0.random.chance(0.4)) }),
            (5, { $0.donate(model.now) }),
            (3, { .context(room: $0.random.pick(["r1", "r2", nil])) }),
        ]
        if names.count < Self.maxInstances { choices.append((6, { $0.add(model) })) }
        if names.count > 3 { choices.append((names.count > 7 ? 5.0 : 2.0, { .remove($0.random.pick(names)) })) }
        if !names.isEmpty {
            choices.append((7, { $0.configure($0.random.pick(names)) }))
            choices.append((7, { $0.push(model) }))
        }
        if !model.donations.isEmpty { choices.append((1, { .deleteDonations(group: "g\(Int.random(in: 0..<3, using: &$0.random))") })) }
        if stacks.count < Self.stackNames.count {
            choices.append((stacks.isEmpty ? 8.0 : 2.0, { .stackCreate(Self.stackNames[stacks.count], smartRotate: $0.random.chance(0.85)) }))
        }
        for stack in stacks {
            let outside = names.filter { name in !stack.instances.contains { model.instance(id: $0)?.name == name } }
            if !outside.isEmpty { choices.append((1.5, { .stackAdd(stack.name, instance: $0.random.pick(outside)) })) }
            if let member = stack.instances.first {
                let members = stack.instances.compactMap { model.instance(id: $0)?.name }
                choices.append((2, { .swipe(stack.name, instance: $0.random.pick(members.isEmpty ? [member] : members)) }))
            }
            choices.append((0.7, { _ in .smartRotate(stack.name, on: !stack.smartRotate) }))
        }
        var roll = Double.random(in: 0..<choices.reduce(0) { $0 + $1.weight }, using: &random)
        for choice in choices {
            roll -= choice.weight
            if roll < 0 { return choice.make(&self) }
        }
        return choices[0].make(&self)
    }

    /// Seconds to hours, more often short: around entry changes, the spacing and the dwell.
    private mutating func advance() -> ModelOp {
        let steps: [Seconds] = [0, 1, 5, 30, 59, 60, 61, 90, 120, 239, 240, 241, 300, 450, 600, 899, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800]
        return .advance(random.pick(steps))
    }

    private mutating func setClock(_ now: Seconds) -> ModelOp {
        .setClock(now + (random.chance(0.8) ? Int.random(in: 1...7200, using: &random) : Int.random(in: 1...(30 * 3600), using: &random)))
    }

    private mutating func add(_ model: WidgetModel) -> ModelOp {
        let kind = random.pick([ModelKind.alpha, .alpha, .beta, .gamma, .gamma, .push])
        let stack = model.stacks.isEmpty || random.chance(0.4) ? nil : random.pick(model.stacks).name
        return .add(kind, family: random.pick(["systemSmall", "systemMedium"]), config(), stack: stack)
    }

    private mutating func config() -> ModelConfig {
        ModelConfig(topic: Int.random(in: 0...3, using: &random), mode: random.pick([0, 0, 1, 1, 2, 3]))
    }

    private mutating func configure(_ name: String) -> ModelOp {
        let new = config()
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .configure(name, topic: new.topic, mode: nil)
        case 1: return .configure(name, topic: nil, mode: new.mode)
        default: return .configure(name, topic: new.topic, mode: new.mode)
        }
    }

    private mutating func reload() -> ModelOp {
        let kinds = ModelKind.allCases.filter { _ in random.chance(0.4) }
        return .reload(kinds.isEmpty ? [random.pick(ModelKind.allCases)] : kinds, userInitiated: false)
    }

    /// A pushed timeline: up to five entries around now (unsorted, sometimes at equal dates),
    /// most with a score, and any policy, sometimes one already due.
    private mutating func push(_ model: WidgetModel) -> ModelOp {
        let pushOnly = model.instances.filter { $0.kind == .push }.map(\.name)
        let name = !pushOnly.isEmpty && random.chance(0.6) ? random.pick(pushOnly) : random.pick(model.instances.map(\.name))
        pushes += 1
        let offsets: [Seconds] = [-1800, -600, -60, 0, 30, 300, 600, 1200, 2400]
        let count = random.chance(0.05) ? 0 : Int.random(in: 1...5, using: &random)
        // Only the push-only kind declares the `context` clue.
        let clued = model.instance(named: name)?.kind == .push
        let entries = (0..<count).map { k -> ModelEntry in
            var relevance = random.chance(0.75)
                ? ModelRelevanceValue(score: random.pick([-1, 0, 1, 2, 3, 5]), duration: random.pick([0, 0, 120, 600])) : nil
            if clued, relevance != nil, random.chance(0.4) { relevance?.room = random.pick(["r1", "r2"]) }
            return ModelEntry(date: model.now + random.pick(offsets), content: "push/\(pushes)/k\(k)", relevance: relevance)
        }
        let policy: ModelPolicy = switch Int.random(in: 0..<5, using: &random) {
        case 0: .never
        case 1: .atEnd
        case 2: .after(model.now - 120)
        default: .after(model.now + random.pick([60, 600, 1800]))
        }
        return .push(name, entries, policy)
    }

    /// A donation at now, earlier today, on an earlier day, or a little ahead.
    private mutating func donate(_ now: Seconds) -> ModelOp {
        donations += 1
        let gamma = random.chance(0.3)
        let date: Seconds = switch Int.random(in: 0..<10, using: &random) {
        case 0..<3: now
        case 3..<6: now - 60 * Int.random(in: 0...360, using: &random)
        case 6..<9: now - ModelTime.day * Int.random(in: 1...6, using: &random) + 60 * Int.random(in: -180...180, using: &random)
        default: now + 60 * Int.random(in: 5...40, using: &random)
        }
        return .donate(ModelDonation(
            intentType: gamma ? "ModelGamma" : "ModelTopic", topic: Int.random(in: 0...3, using: &random),
            mode: gamma ? random.pick([0, 0, 1, 1, 2, 3]) : nil, date: date, id: "d\(donations)", group: "g\(donations % 3)"))
    }
}
