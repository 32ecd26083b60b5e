import Foundation
import Testing
import WidgetCore
@testable import WidgetStore
@testable import WidgetTestSupport

/// Context clues of relevance are stored with the entries and samples that carry them
/// (migration v12), and read back as they were.
@Suite struct ClueRowsTests {
    let directory = temporaryDirectory("wcr")

    static let when = [
        ClueAlternative(location: ClueRegion(latitude: 52.52, longitude: 13.405, radius: 300)),
        ClueAlternative(headphones: true, power: .battery, context: ["room": "kitchen"]),
    ]

    @Test func entriesAndSamplesKeepTheirClues() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let timeline = WidgetTimeline(
            entries: [
                WidgetEntry(date: t0, content: .integer(1), relevance: EntryRelevance(score: 1)),
                WidgetEntry(date: t0 + 60, content: .integer(2), relevance: EntryRelevance(score: 4, duration: 600, when: Self.when)),
                WidgetEntry(date: t0 + 120, content: .integer(3)),
            ], policy: .never)
        let sample = RelevanceSample(date: t0 - 60, score: 2, duration: 0, when: [ClueAlternative(session: .unlocked)])
        do {
            let store = try SQLiteStateStore(directory: directory)
            try await store.apply([.putInstance(WidgetInstance(id: "a", kind: "k", family: .systemSmall, configuration: [:], created: t0))])
            try await store.apply([
                .putTimeline("a", timeline, receivedAt: t0), .updateRelevance("a", RelevanceRowChange(added: [sample])),
                .putFreshRelevance("a", [sample]),
            ])
        }
        let loaded = try await SQLiteStateStore(directory: directory).load()
        let read = try #require(loaded.timeline(of: "a")?.timeline)
        #expect(read == timeline)
        #expect(read.entries.relevance(at: 1)?.when == Self.when)
        #expect(read.entries.relevance(at: 0)?.when == nil)
        #expect(loaded.settledRelevance["a"] == [sample])
        #expect(loaded.freshRelevance["a"] == [sample])
    }
}
