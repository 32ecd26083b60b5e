import Foundation
import Testing
import WidgetProviderKit

/// Context clues in the SDK: an entry's `TimelineEntryRelevance` with contexts is written as
/// `relevance.when`, and a `RelevanceConfiguration` answers one entry relevant under its
/// provider's contexts.
@Suite struct RelevanceClueTests {
    struct StationEntry: TimelineEntry {
        let date: Date
        let line: String
    }

    struct StationProvider: RelevanceEntriesProvider {
        func placeholder(in context: Context) -> StationEntry { StationEntry(date: context.date, line: "-") }

        func relevance(in context: Context) async throws -> WidgetRelevance {
            WidgetRelevance([
                WidgetRelevanceAttribute(context: .location(latitude: 52.5251, longitude: 13.3694, radius: 300), score: 3),
                WidgetRelevanceAttribute(context: .headphones().and(.power(.battery))),
            ])
        }

        func entry(in context: Context) async throws -> StationEntry { StationEntry(date: context.date, line: "S1") }
    }

    struct Bundle: WidgetProviderBundle {
        var body: [any WidgetConfiguration] {
            RelevanceConfiguration(kind: "test.station", provider: StationProvider())
        }
    }

    @Test func aRelevanceConfigurationAnswersOneEntryRelevantUnderItsContexts() async throws {
        let (text, json) = try await ask(Bundle.self, "timeline", request(kind: "test.station"))
        let timeline = try #require((json["timelines"] as? [[String: Any]])?.first)
        #expect(timeline["policy"] as? String == "never")
        let entries = try #require(timeline["entries"] as? [[String: Any]])
        #expect(entries.count == 1)
        #expect((entries[0]["content"] as? [String: Any])?["line"] as? String == "S1")
        let relevance = try #require(entries[0]["relevance"] as? [String: Any])
        #expect(relevance["score"] as? Double == 3)
        let when = try #require(relevance["when"] as? [[String: Any]])
        #expect(when.count == 2)
        #expect((when[0]["location"] as? [String: Any])?["radius"] as? Double == 300)
        #expect(when[1]["headphones"] as? Bool == true && when[1]["power"] as? String == "battery")
        #expect(!text.contains("contexts"))
    }

    @Test func anEntrysContextsAreWrittenAsWhenAndReadBack() throws {
        let relevance = TimelineEntryRelevance(score: 2, duration: 600, contexts: [.session(.locked), .context(["room": "hall"])])
        let data = try JSONEncoder().encode(relevance)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["when"] as? [[String: Any]])?.first?["session"] as? String == "locked")
        #expect(try JSONDecoder().decode(TimelineEntryRelevance.self, from: data) == relevance)
        #expect(TimelineEntryRelevance(contexts: [.headphones()]).score == 1)
        #expect(TimelineEntryRelevance(score: 1).contexts == nil)
    }
}
