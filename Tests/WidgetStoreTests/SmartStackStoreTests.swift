import Foundation
import Testing
import WidgetCore
import WidgetStore
@testable import WidgetTestSupport

/// The v2 tables: stacks, donations, the decision log and (v6) relevance rows survive a reopen.
@Suite struct SmartStackStoreTests {
    let directory = temporaryDirectory("wst")


    func donation(_ id: String?, group: String?, minutes: Double) -> Donation {
        Donation(intentType: "T", parameters: ["p": .string(id ?? "x")], date: t0 + minutes * 60, id: id, group: group)
    }

    func decision(_ stack: String, minutes: Double) -> RotationDecision {
        RotationDecision(date: t0 + minutes * 60, stack: stack, from: "a", to: "b", candidate: "b", reason: .betterCandidate, candidates: [])
    }

    @Test func everythingRoundTripsThroughAReopen() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let instance = WidgetInstance(id: "a", kind: "k", family: .systemSmall, configuration: [:], created: t0)
        var stack = StackState(name: "home", instances: ["a", "b"])
        stack.swipe(to: "b", at: t0, hold: 3600)
        let settled = [RelevanceSample(date: t0 - 60, score: 4, duration: 0), RelevanceSample(date: t0, score: 2, duration: 60)]
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply([
                .putInstance(instance), .putStack(stack), .updateRelevance("a", RelevanceRowChange(added: settled)),
                .putDonation(donation("d1", group: "g", minutes: 0)), .putDonation(donation("d2", group: "g", minutes: 1)),
                .putDonation(donation("d3", group: nil, minutes: 2)),
            ])
            for minute in 0..<5 { try await store.apply([.appendDecision(decision(minute % 2 == 0 ? "home" : "work", minutes: Double(minute)))]) }
            try await store.apply([.pruneDecisions(keep: 4)])
        }
        let store = try SQLiteStateStore(directory: directory)
        let state = try await store.load()
        #expect(state.stacks == [stack])
        #expect(state.settledRelevance["a"] == settled)
        #expect(state.donations.map(\.id) == ["d1", "d2", "d3"])

        let all = try await store.decisions(stack: nil, since: nil, limit: 100)
        #expect(all.map(\.date) == (1..<5).map { t0 + Double($0) * 60 })  // the oldest was pruned
        #expect(try await store.decisions(stack: "home", since: nil, limit: 100).map(\.date) == [t0 + 120, t0 + 240])
        #expect(try await store.decisions(stack: nil, since: t0 + 180, limit: 100).count == 2)
        #expect(try await store.decisions(stack: nil, since: nil, limit: 1).map(\.date) == [t0 + 240])

        try await store.apply([.deleteDonations(id: "d3", group: nil)])
        #expect(try await store.load().donations.map(\.id) == ["d1", "d2"])
        try await store.apply([.deleteDonations(id: nil, group: "g")])
        #expect(try await store.load().donations.isEmpty)
        try await store.apply([.putDonation(donation("d4", group: nil, minutes: 3)), .deleteDonations(id: nil, group: nil)])
        #expect(try await store.load().donations.isEmpty)
        // Removing the instance removes its relevance history.
        try await store.apply([.deleteInstance("a"), .deleteStack("home")])
        let after = try await store.load()
        #expect(after.settledRelevance.isEmpty && after.stacks.isEmpty)
    }
}
