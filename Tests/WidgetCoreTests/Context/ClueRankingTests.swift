import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// Context clues in Timeline JSON and in ranking: an entry's score counts while one of its
/// alternatives holds, a change of the clue ranks the stacks that use it again, and a kind may
/// name only the clues its descriptor declares.
@Suite struct ClueRankingTests {
    static let descriptors = #"""
        [{"kind":"k.clues","supportedFamilies":["systemSmall"],"clues":["headphones","context","location","power","session"]},
         {"kind":"k.plain","supportedFamilies":["systemSmall"]}]
        """#

    static func timeline(_ relevance: String) throws -> WidgetTimeline {
        let json = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1,"relevance":\#(relevance)}],"policy":"never"}"#
        return try WidgetJSON.decoder.decode(WidgetTimeline.self, from: Data(json.utf8))
    }

    /// A stack [plain, clued] where only `clued` has relevance, behind `when`.
    static func stack(_ relevance: String) throws -> (DaemonState, plain: InstanceID, clued: InstanceID) {
        var settings = DaemonSettings()
        settings.rotation.minimumDwell = 0
        var state = makeState(descriptors, settings: settings)
        state.apply(try state.planCreateStack("s", smartRotate: true, at: t0, reserved: LimitReservations()))
        let plain = try state.added("k.plain", stack: "s").0
        let clued = try state.added("k.clues", stack: "s").0
        state.apply(try state.planPush(clued, timeline(relevance), at: t0))
        return (state, plain, clued)
    }

    @Test func whenParsesWithItsAlternativesAndAScoreOfOneByDefault() throws {
        let timeline = try Self.timeline(
            #"{"when":[{"location":{"latitude":52.52,"longitude":13.405,"radius":300}},{"headphones":true,"power":"battery"}]}"#)
        let relevance = try #require(timeline.entries.relevance(at: 0))
        #expect(relevance.score == 1)
        #expect(relevance.when?.count == 2)
        #expect(relevance.when?[1].kinds == [.headphones, .power])
        #expect(timeline.entries.clueKinds == [.location, .headphones, .power])
    }

    @Test(arguments: [
        #"{"score":1,"when":[]}"#,
        #"{"score":1,"when":[{}]}"#,
        #"{"score":1,"when":[{"headphone":true}]}"#,
        #"{"score":1,"when":[{"power":"solar"}]}"#,
        #"{"score":1,"when":[{"location":{"latitude":91,"longitude":0,"radius":10}}]}"#,
        #"{"score":1,"when":[{"location":{"latitude":0,"longitude":0,"radius":0}}]}"#,
        #"{"score":1,"when":[{"context":{}}]}"#,
    ])
    func malformedCluesAreRefused(relevance: String) {
        #expect(throws: (any Error).self) { try Self.timeline(relevance) }
    }

    @Test func aTimelineNamingAnUndeclaredClueIsRefused() throws {
        var state = makeState(Self.descriptors)
        let plain = try state.added("k.plain").0
        let timeline = try Self.timeline(#"{"score":2,"when":[{"headphones":true}]}"#)
        #expect {
            _ = try state.planPush(plain, timeline, at: t0)
        } throws: { error in
            guard case StateError.invalidParams(let message) = error else { return false }
            return message.contains("relevance.when[0].headphones") && message.contains("does not declare the clue 'headphones'")
        }
    }

    @Test func theScoreCountsOnlyWhileItsClueHoldsAndAChangeRanksTheStackAgain() throws {
        var (state, plain, clued) = try Self.stack(#"{"score":5,"when":[{"headphones":true}]}"#)
        _ = state.takeDirtyStacks()
        var explained = try state.explain("s", at: t0)
        let before = try #require(explained.candidates.first { $0.instance == clued })
        #expect(before.relevance == 0 && before.eligible && before.clue == nil)
        #expect(state.stacks["s"]?.top == plain)

        _ = state.observe([.headphones(true)], now: t0 + 60)
        #expect(state.takeDirtyStacks() == ["s"])
        let plan = state.planEvaluation(["s"], at: t0 + 60)
        let decision = try #require(plan.decisions.first)
        #expect(decision.to == clued && decision.reason == .betterCandidate)
        #expect(decision.candidates.first { $0.instance == clued }?.clue?.headphones == true)
        state.apply(plan)
        explained = try state.explain("s", at: t0 + 60)
        #expect(explained.candidates.first { $0.instance == clued }?.relevance == 1)
        #expect(explained.why.contains("clue holds: headphones"))

        // A clue nobody uses marks nothing.
        _ = state.observe([.onBattery(true)], now: t0 + 120)
        #expect(state.takeDirtyStacks().isEmpty)
        _ = state.observe([.headphones(false)], now: t0 + 180)
        #expect(state.planEvaluation(state.takeDirtyStacks(), at: t0 + 180).decisions.first?.to == plain)
    }

    @Test func anAlternativeHoldsOnlyWhenEveryConditionDoes() throws {
        var (state, _, clued) = try Self.stack(
            #"{"score":5,"when":[{"headphones":true,"power":"battery"},{"context":{"room":"kitchen"}}]}"#)
        func clue() throws -> HeldClue? {
            try state.explain("s", at: t0 + 10).candidates.first { $0.instance == clued }?.clue
        }
        _ = state.observe([.headphones(true)], now: t0)
        #expect(try clue() == nil)
        _ = state.observe([.onBattery(true)], now: t0)
        #expect(try clue()?.power == "battery")
        _ = state.observe([.onBattery(nil)], now: t0)
        #expect(try clue() == nil, "an unknown value never holds")
        _ = try state.observe(hostValues: ["room": "kitchen"], now: t0)
        #expect(try clue()?.context == ["room": "kitchen"])
        #expect(state.takeDirtyStacks() == ["s"])
    }

    @Test func aRegionHoldsInsideItsRadiusAndIsToldOnlyAsTheEntrysRegion() throws {
        var (state, _, clued) = try Self.stack(
            #"{"score":5,"when":[{"location":{"latitude":52.5251,"longitude":13.3694,"radius":300}}]}"#)
        #expect(state.usesLocationClue)
        // About 200 m away: inside.
        _ = state.observe([.location(GeoPoint(latitude: 52.5269, longitude: 13.3694, accuracy: 10))], now: t0)
        let candidate = try #require(try state.explain("s", at: t0).candidates.first { $0.instance == clued })
        #expect(candidate.clue?.location == "inside the region of the entry of 2026-01-05T08:00:00Z")
        let text = String(decoding: try WidgetJSON.encoder.encode(candidate), as: UTF8.self)
        #expect(!text.contains("52.52") && !text.contains("13.36"))
        // About 1.1 km away: outside.
        _ = state.observe([.location(GeoPoint(latitude: 52.5351, longitude: 13.3694, accuracy: 10))], now: t0)
        #expect(try state.explain("s", at: t0).candidates.first { $0.instance == clued }?.clue == nil)
    }

    @Test func theLocationSourceSwitchedOffWantsNoLocation() throws {
        var settings = DaemonSettings()
        settings.context.location = false
        var state = makeState(Self.descriptors, settings: settings)
        let id = try state.added("k.clues").0
        state.apply(try state.planPush(id, Self.timeline(#"{"when":[{"location":{"latitude":1,"longitude":2,"radius":50}}]}"#), at: t0))
        #expect(state.clueUsers.inUse(.location))
        #expect(!state.usesLocationClue)
        _ = state.observe([.location(GeoPoint(latitude: 1, longitude: 2, accuracy: 1))], now: t0)
        #expect(!state.context.locationKnown, "no location is taken while the source is off")
    }

    @Test func removingTheInstanceForgetsItsClues() throws {
        var (state, _, clued) = try Self.stack(#"{"score":5,"when":[{"location":{"latitude":1,"longitude":2,"radius":50}}]}"#)
        #expect(state.usesLocationClue)
        state.apply(try state.planRemove(clued, at: t0))
        #expect(!state.usesLocationClue)
    }
}
