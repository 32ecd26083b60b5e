import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Reload policies (docs/overview.md) and Timeline JSON (docs/widgets.md).
@Suite("Reload policies and Timeline JSON")
struct ReloadPolicyTests {
    let entries = [entry(t0 + 60, "b"), entry(t0, "a"), entry(t0 + 600, "c")]
    let received = t0 - 5

    @Test func atEndIsDueAtTheLastEntry() {
        #expect(WidgetTimeline(entries: entries, policy: .atEnd).policyDate(receivedAt: received) == t0 + 600)
    }

    @Test func atEndOfAnEmptyTimelineIsDueAtOnce() {
        #expect(WidgetTimeline(entries: [], policy: .atEnd).policyDate(receivedAt: received) == received)
    }

    @Test(arguments: [-3_600.0, 30, 600, 7_200])
    func afterIsDueAtItsDateWhereverTheLastEntryIs(offset: TimeInterval) {
        // Before, at and after the last entry (t0 + 600): the date is taken as given.
        let timeline = WidgetTimeline(entries: entries, policy: .after(t0 + offset))
        #expect(timeline.policyDate(receivedAt: received) == t0 + offset)
    }

    @Test func neverHasNoDueDate() {
        #expect(WidgetTimeline(entries: entries, policy: .never).policyDate(receivedAt: received) == nil)
        #expect(WidgetTimeline(entries: [], policy: .never).policyDate(receivedAt: received) == nil)
    }

    @Test(arguments: [
        (#""atEnd""#, ReloadPolicy.atEnd),
        (#""never""#, ReloadPolicy.never),
        (#"{"after": "2026-01-05T10:00:00Z"}"#, ReloadPolicy.after(t0 + 7_200)),
        (#"{"after": "2026-01-05T19:00:00+09:00"}"#, ReloadPolicy.after(t0 + 7_200)),
    ])
    func policyForms(json: String, expected: ReloadPolicy) throws {
        #expect(try decodeJSON(ReloadPolicy.self, json) == expected)
        let encoded = try WidgetJSON.encoder.encode(expected)
        #expect(try WidgetJSON.decoder.decode(ReloadPolicy.self, from: encoded) == expected)
    }

    @Test func policyEncodesAsInterfaceMdShowsIt() throws {
        func text(_ policy: ReloadPolicy) throws -> String {
            String(decoding: try WidgetJSON.encoder.encode(policy), as: UTF8.self)
        }
        #expect(try text(.atEnd) == #""atEnd""#)
        #expect(try text(.never) == #""never""#)
        #expect(try text(.after(t0 + 7_200)) == #"{"after":"2026-01-05T10:00:00Z"}"#)
    }

    @Test(arguments: [#""atend""#, #""sometimes""#, #"{"before": "2026-01-05T10:00:00Z"}"#, #"{"after": "tomorrow"}"#, "5"])
    func badPoliciesAreRejected(json: String) {
        #expect(throws: DecodingError.self) { try decodeJSON(ReloadPolicy.self, json) }
    }

    @Test func timelineRoundTrip() throws {
        let original = WidgetTimeline(
            entries: [
                WidgetEntry(
                    date: t0, content: .object(["n": .integer(1), "s": .string("x")]),
                    relevance: EntryRelevance(score: 0.8, duration: 3_600)),
                WidgetEntry(date: t0 + 60.5, content: .array([.bool(true), .null, .number(2.5)])),
            ],
            policy: .after(t0 + 900))
        let data = try WidgetJSON.encoder.encode(original)
        let decoded = try WidgetJSON.decoder.decode(WidgetTimeline.self, from: data)
        #expect(decoded == original)
        #expect(decoded.entries[1].date == t0 + 60.5)
    }

    @Test func timelineFromInterfaceMdExample() throws {
        let json = """
            {"entries": [
               {"date": "2026-01-05T17:01:00+09:00", "content": {"any": "json"}},
               {"date": "2026-01-05T08:00:00Z", "content": {"any": "json"},
                "relevance": {"score": 0.8, "duration": 3600}},
               {"date": "2026-01-05T08:00:30.250Z"}
             ],
             "policy": {"after": "2026-01-05T09:00:00+01:00"}}
            """
        let timeline = try decodeJSON(WidgetTimeline.self, json)
        // +09:00 is 9 hours ahead of UTC: 17:01+09:00 is 08:01Z.
        #expect(timeline.entries.map(\.date) == [t0, t0 + 30.25, t0 + 60])
        #expect(timeline.entries[0].relevance == EntryRelevance(score: 0.8, duration: 3_600))
        #expect(timeline.entries[1].content == .null)
        #expect(timeline.entries[1].relevance == nil)
        #expect(timeline.policy == .after(t0))
    }

    @Test func missingPolicyMeansAtEnd() throws {
        let timeline = try decodeJSON(WidgetTimeline.self, #"{"entries": []}"#)
        #expect(timeline.policy == .atEnd)
        #expect(timeline.entries.isEmpty)
    }

    @Test func relevanceDurationDefaultsToZero() throws {
        let relevance = try decodeJSON(EntryRelevance.self, #"{"score": 2}"#)
        #expect(relevance == EntryRelevance(score: 2, duration: 0))
    }

    @Test(arguments: [
        #"{"score": 1, "duration": -1}"#,
        #"{"score": 1, "duration": 1e400}"#,
        #"{"score": 1e400}"#,
        #"{"score": "high"}"#,
        #"{"duration": 5}"#,
    ])
    func badRelevanceIsRejected(json: String) {
        #expect(throws: (any Error).self) { try decodeJSON(EntryRelevance.self, json) }
    }

    @Test func negativeDurationInsideATimelineRejectsTheTimeline() {
        let json = #"{"entries": [{"date": "2026-01-05T08:00:00Z", "relevance": {"score": 1, "duration": -60}}]}"#
        #expect(throws: DecodingError.self) { try decodeJSON(WidgetTimeline.self, json) }
    }

    @Test(arguments: ["2026-01-05T08:00:00", "2026-01-05", "yesterday"])
    func datesWithoutAZoneAreRejected(date: String) {
        #expect(throws: DecodingError.self) { try decodeJSON(WidgetTimeline.self, #"{"entries": [{"date": "\#(date)"}]}"#) }
    }
}
