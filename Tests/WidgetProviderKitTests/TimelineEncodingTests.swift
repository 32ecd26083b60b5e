import Foundation
import Testing
import WidgetProviderKit

/// A provider's Timeline encodes as the Timeline JSON widgetd's `push` takes.
@Suite struct TimelineEncodingTests {
    struct Score: TimelineEntry {
        let date: Date
        let points: Int
        var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: Float(points)) }
    }

    @Test func timelineEncodesAsWireJSON() throws {
        let date = Date(timeIntervalSince1970: 1_767_600_000)
        let timeline = Timeline(entries: [Score(date: date, points: 3)], policy: .after(date.addingTimeInterval(60)))
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any]
        let entry = (object?["entries"] as? [[String: Any]])?.first
        #expect(entry?["date"] as? String == "2026-01-05T08:00:00Z")
        #expect((entry?["content"] as? [String: Any])?["points"] as? Int == 3)
        #expect((entry?["relevance"] as? [String: Any])?["score"] as? Double == 3)
        #expect((object?["policy"] as? [String: Any])?["after"] as? String == "2026-01-05T08:01:00Z")
    }
}
