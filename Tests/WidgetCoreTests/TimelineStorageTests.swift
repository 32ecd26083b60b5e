import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// A timeline's entries live in one buffer (`TimelineStorage`); what goes in comes out.
@Suite("Timeline storage")
struct TimelineStorageTests {
    func entry(_ offset: TimeInterval, _ json: String, _ relevance: EntryRelevance? = nil) -> WidgetEntry {
        WidgetEntry(date: t0 + offset, contentJSON: json, relevance: relevance)
    }

    @Test(arguments: [ReloadPolicy.atEnd, .never, .after(t0 + 3_600), .after(Date(timeIntervalSinceReferenceDate: -1e9))])
    func entriesAndPolicyRoundTrip(policy: ReloadPolicy) {
        let entries = [
            entry(0, #"{"a":1}"#, EntryRelevance(score: 0.5, duration: 60)),
            entry(60, ""),
            entry(120.25, #""ü ✓ 🦊 \"q\"""#, EntryRelevance(score: -2, duration: 0)),
            entry(180, "null"),
        ]
        let timeline = WidgetTimeline(entries: entries, policy: policy)
        #expect(Array(timeline.entries) == entries)
        #expect(timeline.policy == policy)
        #expect(timeline.entries.map(\.contentJSON) == [#"{"a":1}"#, "", #""ü ✓ 🦊 \"q\"""#, "null"])
        #expect((0..<4).map { timeline.entries.relevance(at: $0) } == entries.map(\.relevance))
        #expect((0..<4).map { timeline.entries.date(at: $0) } == entries.map(\.date))
        #expect(timeline.entries.withContentJSON(at: 2) { Array($0) } == Array(#""ü ✓ 🦊 \"q\"""#.utf8))
    }

    @Test func anEmptyTimelineKeepsItsPolicy() {
        let timeline = WidgetTimeline(entries: [], policy: .after(t0))
        #expect(timeline.entries.isEmpty)
        #expect(timeline.policy == .after(t0))
        #expect(timeline.policyDate(receivedAt: t0 - 5) == t0)
        #expect(WidgetTimeline(entries: [], policy: .atEnd).policyDate(receivedAt: t0 - 5) == t0 - 5)
        #expect(timeline == WidgetTimeline(entries: [], policy: .after(t0)))
        #expect(timeline != WidgetTimeline(entries: [], policy: .never))
    }

    @Test func emptyContentsHaveNoBytes() {
        let timeline = WidgetTimeline(entries: [entry(0, ""), entry(1, ""), entry(2, "")], policy: .never)
        #expect(timeline.entries.map(\.contentJSON) == ["", "", ""])
        #expect(timeline.entries.map { entry in entry.contentJSON.utf8.count } == [0, 0, 0])
    }

    @Test func manyEntriesKeepTheirOrderAndBytes() {
        var random = SplitMix64(seed: 13)
        let entries = (0..<5_000).map { index in
            let length = Int(random.next() % 300)
            let text = String(repeating: "é", count: length / 2) + String(index)
            return entry(Double(index) * 30, #""\#(text)""#, index % 7 == 0 ? EntryRelevance(score: Double(index), duration: 5) : nil)
        }
        let timeline = WidgetTimeline(entries: entries, policy: .atEnd)
        #expect(timeline.entries.count == 5_000)
        #expect(Array(timeline.entries) == entries)
        #expect(timeline.currentIndex(at: t0 + 30 * 2_500 + 1) == 2_500)
        #expect(timeline.nextEntryDate(after: t0 + 30 * 4_998) == t0 + 30 * 4_999)
    }

    @Test func changingThePolicyKeepsTheEntries() {
        var timeline = WidgetTimeline(entries: [entry(0, "1", EntryRelevance(score: 1)), entry(60, "2")], policy: .atEnd)
        let copy = timeline
        timeline.policy = .after(t0 + 10)
        #expect(timeline.policy == .after(t0 + 10))
        #expect(copy.policy == .atEnd)
        #expect(Array(timeline.entries) == Array(copy.entries))
    }

    @Test func equalTimelinesHashEqually() {
        let a = WidgetTimeline(entries: [entry(0, "1"), entry(60, "22", EntryRelevance(score: 3))], policy: .never)
        let b = WidgetTimeline(entries: [entry(60, "22", EntryRelevance(score: 3)), entry(0, "1")], policy: .never)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        // The same bytes split differently between entries are different content.
        #expect(a != WidgetTimeline(entries: [entry(0, "12"), entry(60, "2", EntryRelevance(score: 3))], policy: .never))
        #expect(a != WidgetTimeline(entries: [entry(0, "1"), entry(60, "22", EntryRelevance(score: 4))], policy: .never))
        #expect(a != WidgetTimeline(entries: [entry(0, "1"), entry(60, "22")], policy: .never))
        #expect(a != WidgetTimeline(entries: [entry(0, "1"), entry(61, "22", EntryRelevance(score: 3))], policy: .never))
        #expect(Set([a, b]).count == 1)
    }

    @Test func theBuilderMakesWhatTheInitialiserMakes() {
        let entries = [entry(0, #"{"x":"y"}"#), entry(30, "", EntryRelevance(score: 2, duration: 9)), entry(90, "[1,2]")]
        var builder = TimelineBuilder()
        for entry in entries {
            var text = entry.contentJSON
            text.withUTF8 { builder.append(date: entry.date, contentJSON: UnsafeRawBufferPointer($0), relevance: entry.relevance) }
        }
        #expect(!builder.isEmpty)
        let built = builder.make(policy: .after(t0))
        #expect(built == WidgetTimeline(entries: entries, policy: .after(t0)))
        #expect(builder.isEmpty)
        // The builder starts afresh after each timeline, and may make an empty one.
        #expect(builder.make(policy: .never) == WidgetTimeline(entries: [], policy: .never))
    }

    @Test func theBuilderSortsEntriesOutOfOrder() {
        let entries = [entry(60, "b"), entry(0, "a"), entry(60, "c")]
        var builder = TimelineBuilder()
        for entry in entries {
            var text = entry.contentJSON
            text.withUTF8 { builder.append(date: entry.date, contentJSON: UnsafeRawBufferPointer($0), relevance: nil) }
        }
        let built = builder.make(policy: .atEnd)
        #expect(built.entries.map(\.contentJSON) == ["a", "c"])
        #expect(built == WidgetTimeline(entries: entries, policy: .atEnd))
    }

    @Test func discardedEntriesAreNotInTheNextTimeline() {
        var builder = TimelineBuilder()
        var text = "gone"
        text.withUTF8 { builder.append(date: t0, contentJSON: UnsafeRawBufferPointer($0), relevance: EntryRelevance(score: 1)) }
        builder.discard()
        #expect(builder.isEmpty)
        var kept = "kept"
        kept.withUTF8 { builder.append(date: t0 + 1, contentJSON: UnsafeRawBufferPointer($0), relevance: nil) }
        #expect(builder.make(policy: .never) == WidgetTimeline(entries: [entry(1, "kept")], policy: .never))
    }

    @Test func aTimelineEncodesAsBefore() throws {
        let timeline = WidgetTimeline(
            entries: [WidgetEntry(date: t0, content: .object(["n": .integer(1)]), relevance: EntryRelevance(score: 0.5))],
            policy: .after(t0 + 60))
        let text = String(decoding: try WidgetJSON.encoder.encode(timeline), as: UTF8.self)
        #expect(text == #"{"entries":[{"content":{"n":1},"date":"2026-01-05T08:00:00Z","relevance":{"duration":0,"score":0.5}}],"policy":{"after":"2026-01-05T08:01:00Z"}}"#)
        #expect(try WidgetJSON.decoder.decode(WidgetTimeline.self, from: Data(text.utf8)) == timeline)
    }
}
