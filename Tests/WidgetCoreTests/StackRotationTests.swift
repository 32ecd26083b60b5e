import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Rotation (docs/smart-stacks.md): margin, dwell, hourly cap, user hold, Smart Rotate off,
/// return to the user's choice, and each held-back decision logged once.
@Suite("Stack rotation")
struct StackRotationTests {
    let settings = RotationSettings()

    func candidate(_ id: String, rank: Double, eligible: Bool = true) -> RankedCandidate {
        RankedCandidate(
            instance: id, score: eligible ? rank : -1, relevanceSince: nil, relevanceUntil: nil, relevance: rank, affinity: 0,
            donations: [], eligible: eligible, rank: eligible ? rank : 0)
    }

    func state() -> StackState {
        var state = StackState(name: "home", instances: ["a", "b", "c"])
        state.topSince = t0 - 3600
        return state
    }

    @Test func aBetterCandidateRotatesInByTheMargin() {
        var stack = state()
        let (decision, recheck) = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0.2), candidate("b", rank: 0.9)], at: t0, settings: settings)
        #expect(stack.top == "b")
        #expect(decision?.from == "a")
        #expect(decision?.to == "b")
        #expect(decision?.reason == .betterCandidate)
        #expect(decision?.candidates.map(\.instance) == ["a", "b"])
        #expect(recheck == t0 + settings.minimumDwell)
    }

    @Test func withinTheMarginIsHeldBackAndLoggedOnce() {
        var stack = state()
        let candidates = [candidate("a", rank: 0.5), candidate("b", rank: 0.55)]
        let first = StackRotation.evaluate(&stack, candidates: candidates, at: t0, settings: settings).decision
        #expect(stack.top == "a")
        #expect(first?.reason == .heldByMargin)
        #expect(first?.to == nil)
        #expect(first?.candidate == "b")
        #expect(StackRotation.evaluate(&stack, candidates: candidates, at: t0 + 60, settings: settings).decision == nil)
    }

    @Test func theTopDwellsBeforeItChanges() {
        var stack = state()
        stack.topSince = t0 - 60
        let (decision, recheck) = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0.1), candidate("b", rank: 0.9)], at: t0, settings: settings)
        #expect(decision?.reason == .heldByDwell)
        #expect(stack.top == "a")
        #expect(recheck == t0 - 60 + settings.minimumDwell)
        #expect(StackRotation.evaluate(&stack, candidates: [candidate("a", rank: 0.1), candidate("b", rank: 0.9)], at: recheck!, settings: settings).decision?.to == "b")
    }

    @Test func theHourlyCapHoldsFurtherRotations() {
        var settings = settings
        settings.hourlyCap = 2
        var stack = state()
        var now = t0
        var outcomes: [String] = []
        for step in 0..<6 {
            let leader = step % 2 == 0 ? "b" : "a"
            let candidates = [candidate("a", rank: leader == "a" ? 0.9 : 0.1), candidate("b", rank: leader == "b" ? 0.9 : 0.1)]
            let decision = StackRotation.evaluate(&stack, candidates: candidates, at: now, settings: settings).decision
            outcomes.append(decision.map { $0.to ?? $0.reason.rawValue } ?? "-")
            now = now + settings.minimumDwell
        }
        // Two rotations in the first half hour; the third waits until the first leaves the hour.
        #expect(outcomes == ["b", "a", "heldByCap", "-", "b", "a"])
    }

    @Test func aSwipeHoldsTheUsersChoice() {
        var stack = state()
        stack.swipe(to: "c", at: t0, hold: settings.userHold)
        let (decision, recheck) = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0.9), candidate("c", rank: 0)], at: t0 + 600, settings: settings)
        #expect(stack.top == "c")
        #expect(decision?.reason == .heldByUserHold)
        #expect(recheck == t0 + settings.userHold)
    }

    @Test func smartRotateOffNeverRotates() {
        var stack = state()
        stack.smartRotate = false
        let result = StackRotation.evaluate(&stack, candidates: [candidate("a", rank: 0), candidate("b", rank: 1)], at: t0, settings: settings)
        #expect(result.decision == nil)
        #expect(stack.top == "a")
    }

    @Test func ineligibleInstancesAreNeverRotatedIn() {
        var stack = state()
        let result = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0.2), candidate("b", rank: 5, eligible: false)], at: t0, settings: settings)
        #expect(stack.top == "a")
        #expect(result.decision == nil)
    }

    @Test func withoutSignalTheTopReturnsToTheUsersChoice() {
        var stack = state()
        stack.swipe(to: "b", at: t0 - 7200, hold: settings.userHold)
        stack.top = "c"
        stack.topSince = t0 - 3600
        let decision = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0), candidate("b", rank: 0), candidate("c", rank: 0)], at: t0, settings: settings
        ).decision
        #expect(decision?.reason == .returnToUserChoice)
        #expect(stack.top == "b")
    }

    /// Returning home never puts an instance whose score is <= 0 on top.
    @Test func returningHomeSkipsAnIneligibleChoice() {
        var stack = state()
        stack.top = "b"
        stack.topSince = t0 - 3600
        let decision = StackRotation.evaluate(
            &stack, candidates: [candidate("a", rank: 0, eligible: false), candidate("b", rank: 0), candidate("c", rank: 0)],
            at: t0, settings: settings
        ).decision
        // Home would be "a" (the first), but it is ineligible: the first eligible is "b", already on top.
        #expect(decision == nil)
        #expect(stack.top == "b")
    }
}
