import Foundation
import Testing
import WidgetProviderKit

@Suite("Entry and policy encoding")
struct EntryEncodingTests {
    @Test("content holds the entry's own fields; date and relevance have their own places")
    func contentAndRelevance() async throws {
        let (text, _) = try await ask("timeline", request(kind: "test.async", configuration: #"{"count":1}"#))
        #expect(
            text == #"""
                {"timelines":[{"entries":[{"content":{"count":0,"label":"systemSmall"},"date":"2026-01-05T08:00:00Z",\#
                "relevance":{"duration":30,"score":0.5}}],"policy":"atEnd"}]}
                """#)
    }

    @Test("an entry without relevance has no relevance key")
    func noRelevance() async throws {
        let (_, json) = try await ask("snapshot", request(kind: "test.completion"))
        #expect(json["relevance"] == nil)
        #expect(json.keys.sorted() == ["content", "date"])
    }

    @Test("a Float score prints as written")
    func floatScore() async throws {
        struct Scored: TimelineEntry {
            let date: Date
            let relevance: TimelineEntryRelevance?
        }
        struct Provider: TimelineProvider {
            func placeholder(in context: Context) -> Scored {
                Scored(date: context.date, relevance: TimelineEntryRelevance(score: 0.8))
            }
            func timeline(in context: Context) async -> Timeline<Scored> {
                Timeline(entries: [placeholder(in: context)], policy: .atEnd)
            }
            func snapshot(in context: Context) async -> Scored { placeholder(in: context) }
        }
        struct Bundle: WidgetProviderBundle {
            var body: [any WidgetConfiguration] { StaticConfiguration(kind: "k", provider: Provider()) }
        }
        let (text, _) = try await ask(Bundle.self, "placeholder", request(kind: "k"))
        #expect(text == #"{"content":{},"date":"2026-01-05T08:00:00Z","relevance":{"duration":0,"score":0.8}}"#)
    }

    @Test("a LiveDate property is the content's live date, as hosts read it")
    func liveDate() async throws {
        struct Train: TimelineEntry {
            let date: Date
            let text: String
            let leaves: LiveDate
        }
        struct Provider: TimelineProvider {
            func placeholder(in context: Context) -> Train {
                Train(date: context.date, text: "08:12 to Bern", leaves: LiveDate(date: context.date.addingTimeInterval(720), style: .timer))
            }
            func timeline(in context: Context) async -> Timeline<Train> {
                Timeline(entries: [placeholder(in: context)], policy: .never)
            }
            func snapshot(in context: Context) async -> Train { placeholder(in: context) }
        }
        struct Bundle: WidgetProviderBundle {
            var body: [any WidgetConfiguration] { StaticConfiguration(kind: "k", provider: Provider()) }
        }
        let (text, _) = try await ask(Bundle.self, "placeholder", request(kind: "k"))
        #expect(text == #"{"content":{"leaves":{"$date":"2026-01-05T08:12:00Z","style":"timer"},"text":"08:12 to Bern"},"date":"2026-01-05T08:00:00Z"}"#)
        let leaves = LiveDate(date: Date(timeIntervalSince1970: 1_767_600_720), style: .timer)
        #expect(LiveDate(leaves.json) == leaves)
        #expect(leaves.text(now: leaves.date.addingTimeInterval(-299), timeZone: .gmt) == "4:59")
    }

    @Test(
        "policies encode exactly as widgetd reads them",
        arguments: [
            ("atEnd", #""atEnd""#),
            ("never", #""never""#),
            ("after", #"{"after":"2026-01-05T10:00:00Z"}"#),
        ])
    func policies(kind: String, json: String) async throws {
        struct Provider: TimelineProvider {
            let policy: @Sendable (Date) -> TimelineReloadPolicy
            func placeholder(in context: Context) -> CounterEntry {
                CounterEntry(date: context.date, relevance: nil, count: 0, label: "")
            }
            func timeline(in context: Context) async -> Timeline<CounterEntry> {
                Timeline(entries: [], policy: policy(context.date))
            }
            func snapshot(in context: Context) async -> CounterEntry { placeholder(in: context) }
        }
        struct Bundle: WidgetProviderBundle {
            var body: [any WidgetConfiguration] {
                StaticConfiguration(kind: "atEnd", provider: Provider { _ in .atEnd })
                StaticConfiguration(kind: "never", provider: Provider { _ in .never })
                StaticConfiguration(kind: "after", provider: Provider { .after($0.addingTimeInterval(7200)) })
            }
        }
        let (text, _) = try await ask(Bundle.self, "timeline", request(kind: kind))
        #expect(text == #"{"timelines":[{"entries":[],"policy":\#(json)}]}"#)
    }

    @Test("nested values, dates and slashes in content")
    func nestedContent() async throws {
        struct Link: Encodable, Sendable {
            let url: String
            let at: Date
        }
        struct Rich: TimelineEntry {
            let date: Date
            let links: [Link]
            let ratio: Double
            let note: String?
        }
        struct Provider: TimelineProvider {
            func placeholder(in context: Context) -> Rich {
                Rich(
                    date: context.date, links: [Link(url: "alipays://widget/scan", at: context.date)], ratio: 0.25,
                    note: nil)
            }
            func timeline(in context: Context) async -> Timeline<Rich> {
                Timeline(entries: [placeholder(in: context)], policy: .atEnd)
            }
            func snapshot(in context: Context) async -> Rich { placeholder(in: context) }
        }
        struct Bundle: WidgetProviderBundle {
            var body: [any WidgetConfiguration] { StaticConfiguration(kind: "k", provider: Provider()) }
        }
        let (text, _) = try await ask(Bundle.self, "placeholder", request(kind: "k"))
        #expect(
            text == #"""
                {"content":{"links":[{"at":"2026-01-05T08:00:00Z","url":"alipays://widget/scan"}],"ratio":0.25},"date":"2026-01-05T08:00:00Z"}
                """#)
    }
}
