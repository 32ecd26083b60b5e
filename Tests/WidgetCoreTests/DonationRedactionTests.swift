import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// Donations in answers and events: shown to who may list them, left out for others, the
/// rest of the value unchanged.
@Suite struct DonationRedactionTests {
    static let policy = AccessPolicy(daemonUID: 990, hostGroupName: "widgetd", hostGID: 500)
    static let root = PeerCredentials(uid: 0, gid: 0, pid: 1)
    static let host = PeerCredentials(uid: 1002, gid: 1002, pid: 4, groups: [500])
    static let alice = PeerCredentials(uid: 1001, gid: 1001, pid: 3)
    static let other = PeerCredentials(uid: 1004, gid: 1004, pid: 6)
    static let declarations: [(intentType: String, kind: KindOwnership)] = [
        ("AliceIntent", KindOwnership(kind: "alice.kind", owner: .user(name: "alice", uid: 1001))),
        ("SharedIntent", KindOwnership(kind: "alice.shared", owner: .user(name: "alice", uid: 1001))),
        ("SharedIntent", KindOwnership(kind: "free.shared", owner: nil)),
        ("FreeIntent", KindOwnership(kind: "free.kind", owner: nil)),
    ]

    @Test func theTypesAreThoseDonationsListGives() {
        #expect(Self.policy.donationTypes(Self.root, declarations: Self.declarations) == nil)
        #expect(Self.policy.donationTypes(Self.host, declarations: Self.declarations) == nil)
        #expect(Self.policy.donationTypes(Self.alice, declarations: Self.declarations) == ["AliceIntent", "SharedIntent"])
        #expect(Self.policy.donationTypes(Self.other, declarations: Self.declarations) == [])
    }

    static func candidate(_ id: String, _ donations: [String]) -> RankedCandidate {
        RankedCandidate(
            instance: id, score: 0.5, relevanceSince: nil, relevanceUntil: nil, relevance: 0.25, affinity: 0.75,
            donations: donations, eligible: true, rank: 0.5)
    }

    static let date = Date(timeIntervalSince1970: 1_767_600_000)
    static let decision = RotationDecision(
        date: date, stack: "home", from: "a", to: "b", candidate: "b", reason: .betterCandidate,
        candidates: [candidate("a", ["d1"]), candidate("b", ["2026-01-04T09:30:00Z"]), candidate("c", [])])

    @Test func aCandidateLosesOnlyItsDonations() {
        let sight = DonationSight(instances: ["a"])
        let redacted = Self.decision.redacted(for: sight)
        #expect(redacted.candidates.map(\.donations) == [["d1"], [], []])
        #expect(redacted.candidates.map(\.donationsHidden) == [nil, true, true])
        var expected = Self.decision
        for index in 1...2 {
            expected.candidates[index].donations = []
            expected.candidates[index].donationsHidden = true
        }
        #expect(redacted == expected)
        #expect(Self.decision.redacted(for: .everything) == Self.decision)
        #expect(Self.decision.redacted(for: .nothing).candidates.allSatisfy { $0.donations.isEmpty && $0.donationsHidden == true })
    }

    /// Emptied and marked, so a client that expects the array still reads it; the rest is
    /// written as before.
    @Test func theArrayIsEmptiedAndMarked() throws {
        let text = try #require(Self.decision.redacted(for: .nothing).jsonText)
        #expect(!text.contains("d1") && !text.contains("2026-01-04"))
        #expect(text.contains(#""affinity":0.75,"clue":null,"donations":[],"donationsHidden":true,"eligible":true"#))
        let full = try #require(Self.decision.jsonText)
        #expect(full.contains(#""donations":["d1"],"eligible""#))
        // What the encoder writes is the same.
        let encoded = String(decoding: try WidgetJSON.encoder.encode(Self.decision.redacted(for: .nothing)), as: UTF8.self)
        #expect(encoded == text)
        let decoded = try WidgetJSON.decoder.decode(RotationDecision.self, from: Data(text.utf8))
        #expect(decoded.candidates.allSatisfy { $0.donations.isEmpty && $0.donationsHidden == true })
        // A decision stored before the mark existed reads back unmarked.
        let old = full.replacingOccurrences(of: #","donationsHidden":true"#, with: "")
        #expect(try WidgetJSON.decoder.decode(RotationDecision.self, from: Data(old.utf8)) == Self.decision)
    }

    @Test func simulationTicksOfHiddenInstancesGo() {
        var report = SimulationReport(start: Self.date, end: Self.date + 86400)
        report.donations = [
            SimulatedDonation(date: Self.date + 3600, stack: "home", instance: "a", donated: Self.date - 86400, id: "d1"),
            SimulatedDonation(date: Self.date + 7200, stack: "home", instance: "b", donated: Self.date - 86400, id: nil),
        ]
        report.counts.rotations = 3
        let redacted = report.redacted(for: DonationSight(instances: ["b"]))
        #expect(redacted.donations.map(\.instance) == ["b"])
        var expected = report
        expected.donations.removeFirst()
        #expect(redacted == expected)
        #expect(report.redacted(for: .everything) == report)
    }

    @Test func explanationsAndEvents() {
        let explanation = Explanation(
            stack: "home", top: "a", now: Self.date, smartRotate: true, candidates: Self.decision.candidates, best: "b", why: "b ranks best")
        let redacted = explanation.redacted(for: DonationSight(instances: ["c"]))
        #expect(redacted.candidates.map(\.donations) == [[], [], []])
        #expect(redacted.candidates.map(\.donationsHidden) == [true, true, nil])
        #expect(redacted.why == explanation.why && redacted.best == explanation.best)

        let event = WidgetEvent(type: .rotation, date: Self.date, decision: Self.decision)
        #expect(event.donationInstances == ["a", "b", "c"])
        #expect(event.redacted(for: .nothing).decision?.candidates.allSatisfy { $0.donationsHidden == true } == true)
        let reload = WidgetEvent(type: .reload, date: Self.date, instances: ["a"], kind: "k")
        #expect(reload.donationInstances.isEmpty)
    }

    /// Callers who see the same of an event share one sight, so one encoding.
    @Test func narrowingMakesEqualSightsEqual() {
        let involved: Set<InstanceID> = ["a", "b"]
        #expect(DonationSight(instances: ["a", "b", "z"]).narrowed(to: involved) == .everything)
        #expect(DonationSight(instances: ["y"]).narrowed(to: involved) == DonationSight(instances: ["x"]).narrowed(to: involved))
        #expect(DonationSight(instances: ["a", "y"]).narrowed(to: involved) == DonationSight(instances: ["a"]))
    }
}
