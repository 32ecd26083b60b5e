import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Stacks marked together are evaluated as one plan: the same decisions and stack states as
/// a plan per stack, with the decision log trimmed once, after the last decision.
@Suite struct EvaluationBatchTests {
    @Test func stacksEvaluatedTogetherDecideAsEachAlone() throws {
        let names = ["home", "work", "zz"]
        var (state, second) = try Self.stacksWhoseSecondIsRelevant(names)
        let (together, alone) = Self.evaluated(names, in: state)
        #expect(together.decisions.map(\.to) == names.map { second[$0] })
        #expect(together.storedKinds.filter { $0 == "pruneDecisions" }.count == 1)
        #expect(together.storedKinds.last == "pruneDecisions")
        #expect(together.keys.exclusive == Set(names.map { StateKey.stack($0) }))
        Self.expectSameStacks(names, &state, together: together, alone: alone)
    }

    /// Enough stacks that they are worked out on several threads (`ParallelMap`): the plan is
    /// the one of each stack alone, in name order.
    @Test func manyStacksWorkedOutOnSeveralThreadsDecideAsEachAlone() throws {
        let names = (0..<(4 * ParallelMap.minimumPerThread)).map { String(format: "s%04d", $0) }
        var (state, second) = try Self.stacksWhoseSecondIsRelevant(names)
        let (together, alone) = Self.evaluated(names, in: state)
        #expect(together.decisions.map(\.stack) == names)
        #expect(together.decisions.map(\.to) == names.map { second[$0] })
        Self.expectSameStacks(names, &state, together: together, alone: alone)
    }

    /// Stacks of two instances each, where only the second has relevance, loaded and marked for
    /// evaluation as the virtual clock leaves them: every launch of the instant is in, and the
    /// stacks are only marked.
    static func stacksWhoseSecondIsRelevant(_ names: [String]) throws -> (DaemonState, [String: InstanceID]) {
        var settings = DaemonSettings()
        settings.rotation.minimumDwell = 0
        settings.limits.maxStacks = max(settings.limits.maxStacks, names.count)
        var state = makeState(settings: settings)
        var second: [String: InstanceID] = [:]
        for name in names {
            state.apply(try state.planCreateStack(name, smartRotate: true, at: t0, reserved: LimitReservations()))
            _ = try state.added(stack: name)
            second[name] = try state.added(stack: name).0
        }
        let scored = Set(second.values)
        for launch in state.takeDue(at: t0).launches {
            let outcomes = launch.members.map { member in
                MemberOutcome.timeline(DaemonState.timeline([0], scores: [scored.contains(member.id) ? 1 : nil]))
            }
            state.apply(state.planLaunchResult(launch, outcomes: outcomes, at: t0, evaluate: false))
        }
        #expect(state.takeDirtyStacks() == names)
        return (state, second)
    }

    /// The stacks evaluated in one plan, and each in a plan of its own; the same decisions.
    static func evaluated(_ names: [String], in state: DaemonState) -> (together: Plan, alone: [Plan]) {
        let together = state.planEvaluation(names, at: t0)
        let alone = names.map { state.planEvaluation([$0], at: t0) }
        #expect(together.decisions == alone.flatMap(\.decisions))
        return (together, alone)
    }

    /// Applied, the plans leave every stack and its recheck the same.
    static func expectSameStacks(_ names: [String], _ state: inout DaemonState, together: Plan, alone: [Plan]) {
        var separately = state
        for plan in alone { separately.apply(plan) }
        state.apply(together)
        for name in names {
            #expect(state.stacks[name] == separately.stacks[name])
            #expect(state.stacks.recheck[name] == separately.stacks.recheck[name])
        }
    }

    /// Nothing decided, nothing trimmed.
    @Test func noDecisionNoTrim() throws {
        var state = makeState()
        state.apply(try state.planCreateStack("home", smartRotate: true, at: t0, reserved: LimitReservations()))
        _ = try state.added(stack: "home")
        let plan = state.planEvaluation(["home"], at: t0 + 60)
        #expect(plan.decisions.isEmpty)
        #expect(!plan.storedKinds.contains("pruneDecisions"))
    }
}
