import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// `invalidateRelevance`: fresh relevance replaces the shown timeline's samples and nothing
/// else; an answer about content that has changed since it was asked is dropped.
@Suite("Fresh relevance")
struct FreshRelevanceTests {
    func installed(_ state: inout DaemonState, scores: [Double?]) throws -> InstanceID {
        let (id, _) = try state.added()
        let launch = try #require(state.takeDue(at: t0).launches.first)
        state.apply(state.planLaunchResult(
            launch, outcomes: [.timeline(DaemonState.timeline([0, 600], scores: scores))], at: t0))
        return id
    }

    @Test func freshSamplesTakeThePlaceOfTheTimelinesFromTheirDate() {
        var history = RelevanceHistory(samples: [
            RelevanceSample(date: t0, score: 1, duration: 0), RelevanceSample(date: t0 + 600, score: 0.8, duration: 0),
        ])
        history.install(fresh: [RelevanceSample(date: t0 + 300, score: 0.2, duration: 0)], at: t0 + 300)
        #expect(history.current(at: t0 + 300)?.score == 0.2)
        // The later timeline sample never became current: it is gone; the first one settled.
        #expect(history.current(at: t0 + 900)?.score == 0.2)
        #expect(history.settled.map(\.score) == [1])
        #expect(history.relative(at: t0 + 300, window: 3600) == 0.2)
    }

    @Test func anAskIsLimitedPerHour() throws {
        var settings = DaemonSettings()
        settings.relevancePerHour = 2
        var state = makeState(settings: settings)
        let id = try installed(&state, scores: [1, 0.5])
        #expect(try state.relevanceAsks(kinds: ["k.clock"], at: t0).asks.map(\.instance) == [id])
        #expect(try state.relevanceAsks(kinds: ["k.clock"], at: t0 + 60).asks.count == 1)
        #expect(try state.relevanceAsks(kinds: ["k.clock"], at: t0 + 120).limited == [id])
        #expect(try state.relevanceAsks(kinds: ["k.clock"], at: t0 + 3601).asks.count == 1)
        #expect(throws: StateError.unknownKind("k.none")) { try state.relevanceAsks(kinds: ["k.none"], at: t0) }
        // A kind without a provider has nobody to ask.
        #expect(try state.relevanceAsks(kinds: ["k.push"], at: t0).asks.isEmpty)
    }

    @Test func theAnswerIsInstalledAndStored() throws {
        var state = makeState()
        let id = try installed(&state, scores: [1, 0.5])
        let ask = try #require(try state.relevanceAsks(kinds: ["k.clock"], at: t0 + 60).asks.first)
        let samples = [RelevanceSample(date: t0 + 60, score: 0.3, duration: 600)]
        let (plan, installed, dropped) = state.planFreshRelevance([(ask, samples)], at: t0 + 60)
        #expect(installed == [id])
        #expect(dropped.isEmpty)
        #expect(plan.storedKinds.contains("putFreshRelevance"))
        state.apply(plan)
        #expect(state.instances[id]?.relevance.current(at: t0 + 60)?.score == 0.3)
        #expect(state.instances[id]?.timeline?.timeline.entries.count == 2, "the content stays")
    }

    @Test func anAnswerAboutReplacedContentIsDropped() throws {
        var state = makeState()
        let id = try installed(&state, scores: [1, 0.5])
        let ask = try #require(try state.relevanceAsks(kinds: ["k.clock"], at: t0 + 60).asks.first)
        state.apply(try state.planPush(id, DaemonState.timeline([60], scores: [0.7]), at: t0 + 61))
        let (plan, installed, dropped) = state.planFreshRelevance(
            [(ask, [RelevanceSample(date: t0 + 60, score: 0.1, duration: 0)])], at: t0 + 62)
        #expect(installed.isEmpty)
        #expect(dropped == [id])
        #expect(plan.store.isEmpty)
    }
}
