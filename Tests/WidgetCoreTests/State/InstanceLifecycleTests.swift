import Foundation
import Testing
@testable import WidgetTestSupport
@testable import WidgetCore

/// Everything widgetd knows about an instance is its record (its reload timing included), what
/// the books derive from their records, and its slot in the schedule, which is where its
/// record's timing puts it: adding an instance, doing anything to it, and removing it leaves the
/// state as it was before, for random states.
@Suite("Instance lifecycle")
struct InstanceLifecycleTests {
    static let descriptors = #"""
        [{"kind":"k.clock","supportedFamilies":["systemSmall"],"clues":["headphones"],"provider":{"exec":["/bin/true"]},
          "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}],"supportedCombinations":[["city"]]}},
         {"kind":"k.push","supportedFamilies":["systemSmall"],"clues":["headphones"],
          "intent":{"type":"Clock","parameters":[{"name":"city","type":"string"}],"supportedCombinations":[["city"]]}},
         {"kind":"k.plain","supportedFamilies":["systemSmall"],"clues":["headphones"],"provider":{"exec":["/bin/true"]}}]
        """#
    static let kinds = ["k.clock", "k.push", "k.plain"]
    static let cities = ["Oslo", "Lima", "Pune"]
    /// Every step happens at this instant, so the state before the add is settled at it.
    static let now = t0 + 3600

    @Test(arguments: 0..<100 as Range<UInt64>)
    func addingThenRemovingLeavesTheStateAsItWas(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var state = try Self.randomState(&random)
        let before = Dump(state)
        Self.expectSlotsFollowRecords(state, after: "the random state")

        let kind = Self.kinds.randomElement(using: &random)!
        let hasProvider = kind != "k.push"
        // Joining an empty stack, or one Smart Rotate ranks, changes its top for good: the
        // stack's own history, not the instance's.
        let joinable = state.stacks.names.filter { state.stacks[$0]!.instances.count > 0 && !state.stacks[$0]!.smartRotate }
        let stack = random.next() % 4 != 0 ? joinable.randomElement(using: &random) : nil
        let (id, _) = try state.added(kind, configuration: Self.configuration(&random), stack: stack, at: Self.now)
        Self.settleStacks(&state)
        var running: [Launch] = []

        // What may happen to the instance, in a random order, each at most once.
        let actions = ["visible", "launch", "reload", "push", "clues", "configure", "windows", "hidden", "fail", "shown"].shuffled(using: &random)
        for action in actions where Bool.random(using: &random) {
            switch action {
            case "visible":
                state.apply(try state.planVisible(state.instances.visible.sorted() + [id], at: Self.now))
            case "hidden":
                // Loaded first and shown, so that its next reload is budgeted and held once hidden.
                running += Self.step(&state) { launch in launch.members.map { _ in .timeline(Self.timeline(scores: false)) } }
                state.apply(try state.planVisible(state.instances.visible.sorted() + [id], at: Self.now))
                state.apply(try state.planVisible(state.instances.visible.filter { $0 != id }.sorted(), at: Self.now))
            case "shown":
                // `stack show` by a host, later than the reports.
                _ = state.noteShown(id, at: Self.now + 1)
            case "launch", "fail":
                let failing = action == "fail"
                running += Self.step(&state) { launch in
                    // Some launches are still running when the instance is removed.
                    Bool.random(using: &random) ? nil : launch.members.map { _ in
                        failing ? .failed("exit 1", cause: "exit") : .timeline(Self.timeline(scores: false))
                    }
                }
            case "reload":
                guard hasProvider else { continue }
                // The first load answered first, so that a budgeted reload is not merged into it.
                running += Self.step(&state) { launch in launch.members.map { _ in .timeline(Self.timeline(scores: false)) } }
                state.apply(state.planReload([id], userInitiated: random.next() % 4 == 0, at: Self.now))
                running += Self.step(&state) { _ in nil }
            case "push":
                state.apply(try state.planPush(id, Self.timeline(scores: false), at: Self.now))
            case "clues":
                // A timeline whose relevance names a clue: the book counts the instance a user of it.
                state.apply(try state.planPush(id, Self.timeline(scores: true, clue: true), at: Self.now))
            case "configure":
                state.apply(try state.planConfigure(id, configuration: Self.configuration(&random), at: Self.now))
            case "windows":
                _ = state.takeExemptActionReload(id, at: Self.now)
                // Asking a kind for relevance asks every instance of it: the added one alone is touched here.
                state.instances.update(id) { $0.relevanceAsks.append(Self.now) }
            default:
                Issue.record("no action \(action)")
            }
            Self.settleStacks(&state)
            Self.expectSlotsFollowRecords(state, after: action)
        }
        #expect(state.instances[id] != nil)
        #expect(state.scheduler.contains(id, in: state.instances))

        state.apply(try state.planRemove(id, at: Self.now))
        Self.settleStacks(&state)
        // The answers of launches still running come back after it is gone, and are dropped.
        for launch in running {
            state.apply(state.planLaunchResult(
                launch, outcomes: launch.members.map { _ in .timeline(Self.timeline(scores: false)) }, at: Self.now))
        }
        Self.settleStacks(&state)
        let after = Dump(state)
        for (label, old, new) in before.differences(from: after) {
            Issue.record(
                "seed \(seed), kind \(kind), stack \(stack ?? "none"), actions \(actions): \(label) differs:\n before: \(old)\n after:  \(new)")
        }
    }

    /// Each slot's reload is where its record's timing puts it: in the due wheel and its
    /// provider's wheel at the date the budget lets it run, or in neither (none wanted, in
    /// flight, held while hidden, no provider). A timing changed without moving its slot fails.
    static func expectSlotsFollowRecords(_ state: DaemonState, after action: String) {
        let nodes = state.scheduler.reloadNodes(in: state.instances)
        for record in state.instances.all {
            let hasProvider = state.hasProvider(record.kind)
            let pending = record.timing.pending(budget: state.scheduler.budget, hiddenSince: record.hiddenSince, instance: record.id)
            let expected = hasProvider && !record.timing.inFlight && pending?.held == false ? pending?.effective : nil
            let node = nodes[record.id]
            let placed = expected == nil ? node == nil : node?.due == expected && node?.pending == expected
            guard !placed else { continue }
            Issue.record(
                "after \(action), \(record.id): slot at \(String(describing: node)), its timing \(String(describing: record.timing)) puts it at \(String(describing: expected))")
        }
        #expect(nodes.count <= state.instances.count, "after \(action): reload nodes of instances with no record")
    }

    // MARK: Random states

    /// Stacks (some with Smart Rotate), instances of every kind (some in stacks, some matching
    /// donations, some shown, with relevance), all loaded and evaluated at `now`, so that nothing
    /// more is due then.
    static func randomState(_ random: inout SplitMix64) throws -> DaemonState {
        var settings = DaemonSettings()
        // An hour: a hidden instance's next reload (two hours on) is held, so where its slot is
        // depends on whether a host shows it.
        settings.hiddenAfter = 3600
        var state = makeState(descriptors, settings: settings)
        var stackNames: [String] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let name = "s\(index)"
            let smartRotate = Bool.random(using: &random)
            state.apply(try state.planCreateStack(name, smartRotate: smartRotate, at: t0, reserved: LimitReservations()))
            stackNames.append(name)
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let donation = Donation(
                intentType: "Clock", parameters: ["city": .string(cities.randomElement(using: &random)!)], date: t0)
            state.apply(try state.planDonate(donation, at: t0, reserved: LimitReservations()).plan)
        }
        var ids: [InstanceID] = []
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let kind = kinds.randomElement(using: &random)!
            let stack = random.next() % 3 != 0 ? stackNames.randomElement(using: &random) : nil
            let (id, _) = try state.added(kind, configuration: configuration(&random), stack: stack, at: t0)
            ids.append(id)
        }
        _ = step(&state, at: t0) { launch in
            launch.members.map { _ in .timeline(timeline(scores: true, clue: Bool.random(using: &random))) }
        }
        let shown = ids.filter { _ in Bool.random(using: &random) }
        state.apply(try state.planVisible(shown, at: now))
        _ = step(&state) { _ in Issue.record("nothing is due at now before the add"); return nil }
        return state
    }

    static func configuration(_ random: inout SplitMix64) -> [String: JSONValue] {
        random.next() % 4 != 0 ? ["city": .string(cities.randomElement(using: &random)!)] : [:]
    }

    /// Entries an hour before and after `now`, reloaded two hours after it.
    static func timeline(scores: Bool, clue: Bool = false) -> WidgetTimeline {
        let when = clue ? [ClueAlternative(headphones: true)] : nil
        return WidgetTimeline(
            entries: [
                WidgetEntry(
                    date: now - 3600, content: .string("before"), relevance: scores ? EntryRelevance(score: 0.5, when: when) : nil),
                WidgetEntry(date: now + 3600, content: .string("after")),
            ],
            policy: .after(now + 7200))
    }

    /// One step of the engine at `at`: what is due is taken, each launch answered by `answer`
    /// (nil: still running, returned), and the stacks it touched evaluated.
    static func step(
        _ state: inout DaemonState, at date: Date = now, answer: (Launch) -> [MemberOutcome]?
    ) -> [Launch] {
        var running: [Launch] = []
        let work = state.takeDue(at: date)
        for launch in work.launches {
            if let outcomes = answer(launch) {
                state.apply(state.planLaunchResult(launch, outcomes: outcomes, at: date))
            } else {
                running.append(launch)
            }
        }
        settleStacks(&state, at: date)
        return running
    }

    /// Evaluates the stacks a step marked, as the engine does before the step ends.
    static func settleStacks(_ state: inout DaemonState, at date: Date = now) {
        let dirty = state.takeDirtyStacks()
        if !dirty.isEmpty { state.apply(state.planEvaluation(dirty, at: date)) }
    }

    // MARK: The state, compared

    /// What the state knows, read in a canonical order. Left out: the counters and the id
    /// source (numbers that only grow, never reused), and the scheduler's interned kind and
    /// provider names and free slots (storage, reused by the next instance).
    struct Dump: Equatable {
        var records: [InstanceRecord]
        var visible: Set<InstanceID>
        var timelines: Int
        var matchIndex: MatchIndex
        var clueUsers: ClueUsers
        var stacks: StackBook
        var memos: [String: [InstanceID]]
        var dirtyStacks: Set<String>
        var donations: [LocalDonation]
        var failed: [InstanceID: FailedInstance]
        var slots: [SlotView]
        /// Where each reload is in the wheels.
        var reloadNodes: [String]
        var kinds: [String: [InstanceID]]
        var pending: [ScheduledReload]
        var heldEntries: Int
        var nextWake: Date?

        /// An instance's slot, as the scheduler answers for it from its record (whose timing,
        /// budget history, request and in-flight flag, the records compare).
        struct SlotView: Equatable {
            var id: InstanceID
            var pending: ScheduledReload?
            /// Tells the request it holds (a new one merges with it).
            var merged: String
        }

        init(_ state: DaemonState) {
            records = state.instances.all.sorted { $0.id < $1.id }
            visible = state.instances.visible
            timelines = state.instances.timelines
            matchIndex = state.instances.matchIndex
            clueUsers = state.instances.clueUsers
            stacks = state.stacks
            memos = state.rankingMemos.mapValues { $0.map(\.instance) }
            dirtyStacks = state.dirtyStacks
            donations = state.donations.all
            failed = state.failedInstances
            let scheduler = state.scheduler
            let book = state.instances
            slots = records.map { record in
                let merged = scheduler.mergedRequest(record.id, reason: .requested, at: InstanceLifecycleTests.now + 60, in: book)
                return SlotView(
                    id: record.id, pending: scheduler.pendingReload(for: record.id, in: book),
                    merged: "\(merged.reason) \(merged.wanted.timeIntervalSinceReferenceDate)")
            }
            reloadNodes = scheduler.reloadNodes(in: book).map { "\($0.key) \($0.value)" }.sorted()
            kinds = Dictionary(
                uniqueKeysWithValues: InstanceLifecycleTests.kinds.map { ($0, scheduler.instances(ofKind: $0, in: book).sorted()) })
            pending = scheduler.pendingReloads(in: book)
            heldEntries = scheduler.heldEntries
            nextWake = state.nextWake
        }

        /// Each part that differs, as (name, self, other).
        func differences(from other: Dump) -> [(String, String, String)] {
            var found: [(String, String, String)] = []
            func compare<T: Equatable>(_ name: String, _ part: KeyPath<Dump, T>) {
                if self[keyPath: part] != other[keyPath: part] {
                    found.append((name, "\(self[keyPath: part])", "\(other[keyPath: part])"))
                }
            }
            compare("records", \.records)
            compare("visible", \.visible)
            compare("timelines", \.timelines)
            compare("matchIndex", \.matchIndex)
            compare("clueUsers", \.clueUsers)
            compare("stacks", \.stacks)
            compare("memos", \.memos)
            compare("dirtyStacks", \.dirtyStacks)
            compare("donations", \.donations)
            compare("failed", \.failed)
            compare("slots", \.slots)
            compare("reloadNodes", \.reloadNodes)
            compare("kinds", \.kinds)
            compare("pending", \.pending)
            compare("heldEntries", \.heldEntries)
            compare("nextWake", \.nextWake)
            if found.isEmpty && self != other { found.append(("the dump", "", "")) }
            return found
        }
    }
}
