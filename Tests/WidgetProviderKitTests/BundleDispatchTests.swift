import Foundation
import Testing
import WidgetProviderKit

@Suite("Bundle dispatch")
struct BundleDispatchTests {
    @Test("timeline answers one timeline per instance, in order, each with its own configuration")
    func batchInOrder() async throws {
        let body = #"""
            {"configuration":{"count":1},"family":"systemSmall","instance":"a",
             "instances":[
               {"configuration":{"count":1},"family":"systemSmall","instance":"a","kind":"test.async"},
               {"configuration":{"count":3},"family":"systemMedium","instance":"b","kind":"test.async"}],
             "kind":"test.async","now":"2026-01-05T08:00:00Z","verb":"timeline"}
            """#
        let (_, json) = try await ask("timeline", body)
        let timelines = try #require(json["timelines"] as? [[String: Any]])
        #expect(timelines.count == 2)
        let first = try #require(timelines[0]["entries"] as? [[String: Any]])
        let second = try #require(timelines[1]["entries"] as? [[String: Any]])
        #expect(first.count == 1)
        #expect(second.count == 3)
        #expect((second[2]["content"] as? [String: Any])?["label"] as? String == "systemMedium")
        #expect(
            second.map { $0["date"] as? String } == [
                "2026-01-05T08:00:00Z", "2026-01-05T08:01:00Z", "2026-01-05T08:02:00Z",
            ])
    }

    @Test("one launch serves instances of different kinds of the bundle")
    func batchOfTwoKinds() async throws {
        let body = #"""
            {"configuration":{},"family":"systemSmall","instance":"a",
             "instances":[
               {"configuration":{"mood":"grumpy","name":"Sam"},"family":"systemMedium","instance":"b","kind":"test.greeting"},
               {"configuration":{},"family":"systemSmall","instance":"a","kind":"test.completion"}],
             "kind":"test.greeting","now":"2026-01-05T08:00:00Z","verb":"timeline"}
            """#
        let (text, _) = try await ask("timeline", body)
        #expect(
            text == #"""
                {"timelines":[{"entries":[{"content":{"greeting":"Go away, Sam"},"date":"2026-01-05T08:00:00Z"}],"policy":{"after":"2026-01-05T10:00:00Z"}},\#
                {"entries":[{"content":{"count":7,"label":"completion"},"date":"2026-01-05T08:00:00Z"}],"policy":"never"}]}
                """#)
    }

    @Test("a timeline request without an instances list is answered for its top-level instance")
    func timelineWithoutList() async throws {
        let (_, json) = try await ask("timeline", request(kind: "test.async", configuration: #"{"count":4}"#))
        let timelines = try #require(json["timelines"] as? [[String: Any]])
        #expect((timelines.first?["entries"] as? [Any])?.count == 4)
    }

    @Test("snapshot passes isPreview and answers one entry")
    func snapshot() async throws {
        let preview = try await ask("snapshot", request(kind: "test.async", extra: #""isPreview":true,"#))
        #expect(preview.text == #"{"content":{"count":1,"label":"preview"},"date":"2026-01-05T08:00:00Z"}"#)
        let plain = try await ask("snapshot", request(kind: "test.async", extra: #""isPreview":false,"#))
        #expect((plain.json["content"] as? [String: Any])?["label"] as? String == "snapshot")
    }

    @Test("snapshot of an intent provider decodes the configuration as its Intent")
    func intentSnapshot() async throws {
        let configuration = #"{"due":"2026-02-01T12:00:00.250+01:00","friends":["ann","cy"],"name":"Kim"}"#
        let (text, _) = try await ask("snapshot", request(kind: "test.greeting", configuration: configuration))
        #expect(
            text
                == #"{"content":{"due":"2026-02-01T11:00:00.250Z","greeting":"Hello, Kim & ann+cy"},"date":"2026-01-05T08:00:00Z"}"#
        )
    }

    @Test("placeholder answers the provider's sample entry")
    func placeholder() async throws {
        let (text, _) = try await ask("placeholder", request(kind: "test.greeting"))
        #expect(text == #"{"content":{"greeting":"Hello"},"date":"2026-01-05T08:00:00Z"}"#)
    }

    @Test("every date derives from the request's now, fractional seconds included")
    func datesFromNow() async throws {
        let now = "2031-07-04T23:59:30.500Z"
        let (_, json) = try await ask("timeline", request(kind: "test.async", configuration: #"{"count":2}"#, now: now))
        let timeline = try #require((json["timelines"] as? [[String: Any]])?.first)
        let dates = (timeline["entries"] as? [[String: Any]])?.compactMap { $0["date"] as? String }
        #expect(dates == [now, "2031-07-05T00:00:30.500Z"])
        let greeting = try await ask("timeline", request(kind: "test.greeting", now: "2026-01-05T09:00:00+09:00"))
        #expect(greeting.text.contains(#""date":"2026-01-05T00:00:00Z""#))
        #expect(greeting.text.contains(#""policy":{"after":"2026-01-05T02:00:00Z"}"#))
    }
}

@Suite("Relevance verb")
struct RelevanceVerbTests {
    @Test("a RelevanceProvider answers relevance for the instance asked, with its configuration")
    func relevanceOfAnInstance() async throws {
        let body = request(kind: "test.greeting", configuration: #"{"mood":"grumpy"}"#, extra: #""instance":"w1","#)
        let (text, _) = try await ask("relevance", body)
        #expect(text == #"{"relevance":[{"date":"2026-01-05T08:00:00Z","duration":3600,"score":0.9}]}"#)
    }

    @Test("a provider that is not a RelevanceProvider says so")
    func noRelevance() async throws {
        await #expect(throws: WidgetProviderError.noRelevance(kind: "test.async")) {
            try await ask("relevance", request(kind: "test.async"))
        }
    }
}
