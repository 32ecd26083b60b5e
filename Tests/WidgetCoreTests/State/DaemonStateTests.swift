import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// The state's changes on a manual clock: each is planned against the state as it is, changes
/// nothing until applied, and carries its consequences (evaluations, decisions, events).
@Suite struct DaemonStateTests {
    static var quickRotation: DaemonSettings {
        var settings = DaemonSettings()
        settings.rotation.minimumDwell = 0
        return settings
    }

    @Test func aPlanChangesNothingUntilItIsApplied() throws {
        var state = makeState()
        let id = state.makeInstanceID()
        let plan = try state.planAdd(
            id: id, kind: "k.clock", family: .systemSmall, configuration: [:], stack: nil, at: t0, reserved: LimitReservations())
        #expect(state.instances.count == 0)
        #expect(state.scheduler.nextDeadline() == nil)
        #expect(plan.storedKinds == ["putInstance", "putRequest"])
        #expect(plan.keys.exclusive == [.instance(id)])
        #expect(plan.reservation.instances == 1)
        state.apply(plan)
        #expect(state.instances[id]?.request?.reason == .initial)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.due == t0)
    }

    @Test func addingToAStackIsOnePlanWithTheStacksEvaluation() throws {
        var state = makeState()
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let (id, plan) = try state.added(stack: "home")
        #expect(plan.storedKinds.filter { $0 == "putInstance" || $0 == "putStack" } == ["putInstance", "putStack"])
        #expect(plan.keys.exclusive.contains(.stack("home")))
        #expect(state.stacks["home"]?.instances == [id])
        #expect(state.stacks["home"]?.top == id)
        #expect(state.stacks.containing(id) == ["home"])
    }

    @Test func aRefusedChangeLeavesTheStateAsItWas() throws {
        var settings = DaemonSettings()
        settings.limits.maxInstances = 1
        var state = makeState(settings: settings)
        try state.added()
        #expect(throws: StateError.limitExceeded(settings.limits.instancesExceeded())) {
            try state.added()
        }
        // What is still being stored counts too.
        var fresh = makeState(settings: settings)
        #expect(throws: StateError.self) {
            try fresh.planAdd(
                id: "x", kind: "k.clock", family: .systemSmall, configuration: [:], stack: nil, at: t0,
                reserved: LimitReservations(instances: 1))
        }
        #expect(throws: StateError.unknownStack("nope")) { try state.planSwipe("nope", to: "x", at: t0) }
        #expect(throws: StateError.unknownKind("k.none")) {
            try fresh.planAdd(
                id: "y", kind: "k.none", family: .systemSmall, configuration: [:], stack: nil, at: t0, reserved: LimitReservations())
        }
        #expect(state.instances.count == 1)
        #expect(fresh.instances.count == 0)
    }

    @Test func aKindWhoseProviderCannotRunRefusesPlacingAndReloadingWithItsProblem() throws {
        var state = makeState()
        let (id, _) = try state.added()
        let problem = "$.provider.exec[0]: /srv/w/clock does not exist"
        state.descriptors["k.clock"]?.problem = problem
        #expect(throws: StateError.unusableKind("k.clock", problem: problem)) { try state.added() }
        #expect(throws: StateError.unusableKind("k.clock", problem: problem)) { try state.reloadTargets(kinds: ["k.clock"]) }
        // reloadAllTimelines() leaves it out rather than launch what can only fail.
        #expect(state.reloadAllTargets(onlyKinds: nil).isEmpty)
        state.descriptors["k.clock"]?.problem = nil
        #expect(state.reloadAllTargets(onlyKinds: nil) == [id])
        state.descriptors["k.clock"]?.problem = problem
        // The instance placed before stays, and a kind without the problem is unaffected.
        #expect(state.instances.count == 1)
        #expect(try state.reloadTargets(kinds: ["k.push"]).isEmpty)
        #expect(state.instances[id] != nil)
    }

    /// A kind named twice, or an instance named beside its kind, is reloaded once; the
    /// targets come sorted, and an instance of a push-only kind named alone is refused.
    @Test func reloadTargetsNameEachInstanceOnceInOrder() throws {
        var state = makeState()
        let ids = try (0..<5).map { _ in try state.added().0 }
        let (pushed, _) = try state.added("k.push")
        #expect(try state.reloadTargets(kinds: ["k.clock"]) == ids.sorted())
        #expect(try state.reloadTargets(kinds: ["k.clock", "k.push", "k.clock"]) == ids.sorted())
        #expect(try state.reloadTargets(kinds: ["k.clock"], instances: [ids[3], ids[1], ids[3]]) == ids.sorted())
        #expect(try state.reloadTargets(kinds: [], instances: [ids[3], ids[1], ids[3]]) == [ids[1], ids[3]].sorted())
        #expect(throws: StateError.unknownInstance("nope")) { try state.reloadTargets(kinds: [], instances: ["nope"]) }
        #expect(throws: (any Error).self) { try state.reloadTargets(kinds: [], instances: [pushed]) }
    }

    @Test func aLaunchInstallsItsTimelineAndForgetsTheRequestItCarriedOut() throws {
        var state = makeState()
        let (id, _) = try state.added()
        let work = state.takeDue(at: t0)
        let launch = try #require(work.launches.first)
        #expect(work.popped == 1)
        #expect(launch.members.map(\.id) == [id])
        #expect(launch.reasons == [.initial])
        let plan = state.planLaunchResult(launch, outcomes: [.timeline(DaemonState.timeline([0, 60]))], at: t0)
        #expect(plan.storedKinds == ["recordReload", "putTimeline", "deleteRequest", "pruneReloads"])
        #expect(plan.events == [.reload(kind: "k.clock", instances: [id], date: t0)])
        state.apply(plan)
        #expect(state.instances[id]?.timeline?.timeline.entries.count == 2)
        #expect(state.instances[id]?.request == nil)
        #expect(state.instances.timelines == 1)
        // Its next entry change is scheduled; nothing is launched again (policy never).
        #expect(state.scheduler.nextDeadline() == t0 + 60)
    }

    /// A race between a push and a launch: a provider answer that arrives after a push replaced what the
    /// launch was asked for is dropped, whatever the timing.
    @Test func aLateProviderAnswerDoesNotReplaceANewerPush() throws {
        var state = makeState()
        let (id, _) = try state.added()
        let launch = try #require(state.takeDue(at: t0).launches.first)
        state.apply(try state.planPush(id, DaemonState.timeline([0], scores: [1]), at: t0 + 1))
        let late = state.planLaunchResult(launch, outcomes: [.timeline(DaemonState.timeline([0, 30]))], at: t0 + 2)
        #expect(!late.storedKinds.contains("putTimeline"))
        #expect(late.storedKinds.contains("deleteRequest"), "the request it carried out is done all the same")
        #expect(late.notes.map(\.level) == [.debug])
        state.apply(late)
        #expect(state.instances[id]?.timeline?.timeline == DaemonState.timeline([0], scores: [1]))
        #expect(state.counters.droppedAnswers == 1)
        #expect(state.instances[id]?.request == nil)
        #expect(state.instances[id]?.timing.inFlight == false)
    }

    @Test func aConfigurationWhileALaunchRunsDropsItsAnswerAndReloadsAgain() throws {
        var state = makeState()
        let (id, _) = try state.added(configuration: ["city": .string("Oslo")])
        let launch = try #require(state.takeDue(at: t0).launches.first)
        state.apply(try state.planConfigure(id, configuration: ["city": .string("Rome")], at: t0 + 1))
        state.apply(state.planLaunchResult(launch, outcomes: [.timeline(DaemonState.timeline([0]))], at: t0 + 2))
        #expect(state.instances[id]?.timeline == nil)
        #expect(state.instances[id]?.request?.reason == .configuration)
        let again = try #require(state.takeDue(at: t0 + 2).launches.first)
        #expect(again.members.first?.configuration == ["city": .string("Rome")])
        #expect(again.reasons == [.configuration])
    }

    /// The rotation a reload causes is decided in the same plan as the reload, not at a later wake-up.
    @Test func aReloadsRotationIsPartOfTheReload() throws {
        var state = makeState(settings: Self.quickRotation)
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let (first, _) = try state.added(stack: "home")
        let (second, _) = try state.added(stack: "home")
        let launches = state.takeDue(at: t0).launches
        #expect(launches.count == 1, "same kind, family and configuration: one launch")
        let launch = try #require(launches.first)
        let outcomes = launch.members.map { member in
            MemberOutcome.timeline(DaemonState.timeline([0], scores: [member.id == second ? 1 : nil]))
        }
        let plan = state.planLaunchResult(launch, outcomes: outcomes, at: t0)
        #expect(plan.decisions.map(\.to) == [second])
        #expect(plan.storedKinds.contains("appendDecision"))
        state.apply(plan)
        #expect(state.stacks["home"]?.top == second)
        #expect(state.stacks["home"]?.instances == [first, second])
    }

    @Test func donationsCountForStackedInstancesAndTheirDeletionAtOnce() throws {
        var state = makeState(settings: Self.quickRotation)
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let (oslo, _) = try state.added("k.push", configuration: ["city": .string("Oslo")], stack: "home")
        let (rome, _) = try state.added("k.push", configuration: ["city": .string("Rome")], stack: "home")
        let (loose, _) = try state.added("k.push", configuration: ["city": .string("Rome")])
        let donation = Donation(intentType: "Clock", parameters: ["city": .string("Rome")], date: t0, id: "d1")
        let (plan, matched) = try state.planDonate(donation, at: t0, reserved: LimitReservations())
        #expect(matched == [rome, loose].sorted())
        #expect(plan.keys.shared == [.donations])
        state.apply(plan)
        #expect(state.instances[rome]?.matched.map(\.donation.id) == ["d1"])
        #expect(state.instances[loose]?.matched.isEmpty == true, "kept only for instances in a stack")
        #expect(state.instances[oslo]?.matched.isEmpty == true)

        // A donation counts from the next affinity slot: there Rome ranks by affinity.
        let slot = t0 + 900
        let ranked = state.rankedCandidates(try state.stack("home"), at: slot)
        #expect(ranked.first { $0.instance == rome }!.affinity > 0)
        let (deletion, deleted) = state.planDeleteDonations(.id("d1"), onlyKinds: nil, at: slot)
        #expect(deleted == 1)
        state.apply(deletion)
        #expect(state.instances[rome]?.matched.isEmpty == true)
        #expect(state.rankedCandidates(try state.stack("home"), at: slot).allSatisfy { $0.affinity == 0 })
    }

    @Test func aVisibleReportReplacesThePreviousOne() throws {
        var state = makeState()
        let (a, _) = try state.added("k.push")
        let (b, _) = try state.added("k.push")
        state.apply(try state.planVisible([a], at: t0))
        state.apply(try state.planVisible([b], at: t0 + 60))
        #expect(state.instances.visible == [b])
        // Shown until the report that left it out.
        #expect(state.instances[a]?.lastVisible == t0 + 60)
        #expect(state.instances[b]?.lastVisible == t0 + 60)
        #expect(throws: StateError.unknownInstance("nope")) { try state.planVisible(["nope"], at: t0) }
    }

    @Test func idsFollowTheSeed() {
        var one = makeState()
        var two = makeState()
        let first = (0..<5).map { _ in one.makeInstanceID() }
        #expect(first == (0..<5).map { _ in two.makeInstanceID() })
        #expect(Set(first).count == 5)
        #expect(first.allSatisfy { $0.count == 8 })
    }

    @Test func aRemovalTakesTheInstanceOutOfItsStacksInOneChange() throws {
        var state = makeState()
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        let (a, _) = try state.added("k.push", stack: "home")
        let (b, _) = try state.added("k.push", stack: "home")
        let plan = try state.planRemove(a, at: t0 + 10)
        #expect(plan.storedKinds.prefix(2) == ["deleteInstance", "putStack"])
        state.apply(plan)
        #expect(state.stacks["home"]?.instances == [b])
        #expect(state.stacks["home"]?.top == b)
        #expect(state.stacks.containing(a).isEmpty)
        #expect(state.scheduler.contains(a, in: state.instances) == false)
    }
}
