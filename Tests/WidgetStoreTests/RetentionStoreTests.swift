import Foundation
import GRDB
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// `[limits]` retention in the store: the newest donations by date and the newest decisions
/// are kept, through indexes rather than sorts of the whole table.
@Suite struct RetentionStoreTests {
    let directory = temporaryDirectory("wrs")


    func donation(_ id: String, minutes: Double) -> Donation {
        Donation(intentType: "T", parameters: [:], date: t0 + minutes * 60, id: id)
    }

    func decision(_ minute: Int) -> RotationDecision {
        RotationDecision(
            date: t0 + Double(minute) * 60, stack: "home", from: "a", to: "b", candidate: "b", reason: .betterCandidate, candidates: [])
    }

    @Test func donationsKeepTheNewestByDateInTheSameTransaction() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        // Recorded out of date order; two share a date (the later recorded counts as newer).
        for (id, minute) in [("d5", 5.0), ("d1", 1), ("d3", 3), ("d3b", 3), ("d2", 2)] {
            try await store.apply([.putDonation(donation(id, minutes: minute)), .pruneDonations(keep: 4)])
        }
        #expect(try await store.load().donations.map(\.id) == ["d2", "d3", "d3b", "d5"])
        try await store.apply([.putDonation(donation("d0", minutes: 0)), .pruneDonations(keep: 3)])
        // The new one is the oldest: it goes at once, with the oldest of the rest.
        #expect(try await store.load().donations.map(\.id) == ["d3", "d3b", "d5"])
        try await store.apply([.pruneDonations(keep: 10)])
        #expect(try await store.load().donations.count == 3)
        try await store.apply([.pruneDonations(keep: 0)])
        #expect(try await store.load().donations.isEmpty)

        let plan = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT rowid FROM donation ORDER BY date, rowid LIMIT 1")
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
        #expect(plan.contains("INDEX donation_date"), "\(plan)")
    }

    @Test func decisionsKeepTheNewestAtEveryPrune() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStateStore(directory: directory)
        for minute in 0..<30 {
            try await store.apply([.appendDecision(decision(minute)), .pruneDecisions(keep: 10)])
            let count = try await store.decisions(stack: nil, since: nil, limit: 1000).count
            #expect(count == min(minute + 1, 10))
        }
        #expect(try await store.decisions(stack: nil, since: nil, limit: 1000).map(\.date) == (20..<30).map { t0 + Double($0) * 60 })
        // A lower limit (SIGHUP, restart) trims at the next prune.
        try await store.apply([.pruneDecisions(keep: 3)])
        #expect(try await store.decisions(stack: nil, since: nil, limit: 1000).map(\.date) == (27..<30).map { t0 + Double($0) * 60 })
    }
}
