import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Rotation decisions written without JSONEncoder (the journal's candidates, the decision
/// log's rows) are byte for byte what `WidgetJSON.encoder` writes.
@Suite struct DecisionJSONTests {
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 2, 100, 1e-7, 0.1 + 0.2, 1.0 / 3, 123_456_789.125, 1e15, 1e16, 1e17, 1e21, 1e300, .leastNonzeroMagnitude,
        .leastNormalMagnitude, .greatestFiniteMagnitude, -2.5e-5, 0.05504587155963303,
    ]
    static let dates: [Date?] = [
        nil, Date(timeIntervalSince1970: 1_767_600_000), Date(timeIntervalSince1970: 1_767_600_000.255),
        Date(timeIntervalSince1970: -1e10), Date(timeIntervalSince1970: 1e12),
    ]

    @Test func randomDecisionsMatchTheEncoder() throws {
        var random = SplitMix64(seed: 0xDEC1)
        func double() -> Double {
            if Bool.random(using: &random) { return Self.doubles.randomElement(using: &random)! }
            let any = Double(bitPattern: random.next())
            return any.isFinite ? any : Double(Int32.random(in: .min ... .max, using: &random)) / 1000
        }
        func text() -> String { DirectJSONTests.awkward.randomElement(using: &random)! }
        for _ in 0..<500 {
            let candidates = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                RankedCandidate(
                    instance: text(), score: Bool.random(using: &random) ? double() : nil,
                    relevanceSince: Self.dates.randomElement(using: &random)!, relevanceUntil: Self.dates.randomElement(using: &random)!,
                    relevance: double(), affinity: double(), donations: (0..<Int.random(in: 0...2, using: &random)).map { _ in text() },
                    eligible: Bool.random(using: &random), rank: double())
            }
            let decision = RotationDecision(
                date: Self.dates.compactMap { $0 }.randomElement(using: &random)!, stack: text(),
                from: Bool.random(using: &random) ? text() : nil, to: Bool.random(using: &random) ? text() : nil, candidate: text(),
                reason: [.betterCandidate, .returnToUserChoice, .heldByMargin, .heldByDwell, .heldByCap, .heldByUserHold]
                    .randomElement(using: &random)!,
                candidates: candidates)
            #expect(decision.jsonText == String(decoding: try WidgetJSON.encoder.encode(decision), as: UTF8.self))
            #expect(decision.candidatesJSON == String(decoding: try WidgetJSON.encoder.encode(candidates), as: UTF8.self))
        }
    }

    /// A stack's stored state, written directly, is what the encoder writes.
    @Test func randomStackStatesMatchTheEncoder() throws {
        var random = SplitMix64(seed: 0x57AC)
        func text() -> String { DirectJSONTests.awkward.randomElement(using: &random)! }
        func date() -> Date? { Self.dates.randomElement(using: &random)! }
        for _ in 0..<300 {
            var state = StackState(
                name: text(), instances: (0..<Int.random(in: 0...4, using: &random)).map { _ in text() },
                smartRotate: Bool.random(using: &random))
            state.top = Bool.random(using: &random) ? text() : nil
            state.userChoice = Bool.random(using: &random) ? text() : nil
            state.topSince = date()
            state.holdUntil = date()
            state.rotations = (0..<Int.random(in: 0...3, using: &random)).compactMap { _ in date() }
            state.lastHeld = Bool.random(using: &random) ? text() : nil
            #expect(state.jsonText == String(decoding: try WidgetJSON.encoder.encode(state), as: UTF8.self))
        }
    }

    /// JSONEncoder refuses a number that is not finite; so does the direct writer.
    @Test func numbersThatAreNotFiniteAreRefused() {
        for bad in [Double.infinity, -.infinity, .nan] {
            let candidate = RankedCandidate(
                instance: "a", score: bad, relevanceSince: nil, relevanceUntil: nil, relevance: 0, affinity: 0, donations: [],
                eligible: true, rank: 0)
            let decision = RotationDecision(
                date: Date(timeIntervalSince1970: 0), stack: "s", from: nil, to: "a", candidate: "a", reason: .betterCandidate,
                candidates: [candidate])
            #expect(decision.jsonText == nil)
            #expect(decision.candidatesJSON == nil)
            #expect((try? WidgetJSON.encoder.encode(decision)) == nil)
        }
    }
}
