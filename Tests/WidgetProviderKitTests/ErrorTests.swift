import Foundation
import Testing
import WidgetProviderKit

@Suite("Errors")
struct ErrorTests {
    @Test("an unknown kind is an error naming the kinds served")
    func unknownKind() async throws {
        await #expect(
            throws: WidgetProviderError.unknownKind(
                "test.nope", served: ["test.async", "test.completion", "test.greeting"])
        ) {
            _ = try await TestBundle.answer(verb: "snapshot", request: Data(request(kind: "test.nope").utf8))
        }
    }

    @Test("an unknown kind in a batch fails only its own slot")
    func unknownKindInBatch() async throws {
        let body = #"""
            {"configuration":{},"family":"systemSmall","instance":"a","kind":"test.async","now":"2026-01-05T08:00:00Z",
             "instances":[{"configuration":{},"family":"systemSmall","instance":"a","kind":"test.async"},
                          {"configuration":{},"family":"systemSmall","instance":"b","kind":"test.gone"}]}
            """#
        let answer = try await TestBundle.answer(verb: "timeline", request: Data(body.utf8))
        let slots = try #require((try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["timelines"] as? [[String: Any]])
        #expect(slots.count == 2)
        #expect(slots[0]["entries"] is [Any])
        #expect((slots[1]["error"] as? String)?.contains("test.gone") == true)
    }

    @Test("an unknown verb is an error", arguments: ["reload", "", "Timeline"])
    func unknownVerb(verb: String) async throws {
        await #expect(throws: WidgetProviderError.unknownVerb(verb)) {
            _ = try await TestBundle.answer(verb: verb, request: Data(request(kind: "test.async").utf8))
        }
    }

    @Test("a request that is not JSON, or lacks now, is a bad request")
    func badRequest() async throws {
        await #expect(throws: WidgetProviderError.badRequest("not JSON")) {
            _ = try await TestBundle.answer(verb: "timeline", request: Data("{".utf8))
        }
        await #expect(throws: WidgetProviderError.badRequest(".now is required")) {
            _ = try await TestBundle.answer(
                verb: "timeline", request: Data(#"{"family":"systemSmall","kind":"test.async"}"#.utf8))
        }
    }

    @Test("a configuration that does not decode as the Intent names the field")
    func badConfiguration() async throws {
        let body = request(kind: "test.greeting", configuration: #"{"mood":"sleepy"}"#)
        let answer = try await TestBundle.answer(verb: "timeline", request: Data(body.utf8))
        let slots = (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["timelines"] as? [[String: Any]]
        let reason = try #require(slots?.first?["error"] as? String)
        #expect(reason.contains("test.greeting"))
        #expect(reason.contains(".mood"))
        // The one-instance verbs still fail as a whole, with the same message.
        do {
            _ = try await TestBundle.answer(verb: "snapshot", request: Data(body.utf8))
            Issue.record("expected an error")
        } catch let error as WidgetProviderError {
            guard case .badConfiguration(let kind, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(kind == "test.greeting")
            #expect(reason.hasPrefix(".mood"))
        }
    }

    @Test("a kind listed twice is refused")
    func duplicateKind() async throws {
        await #expect(throws: WidgetProviderError.duplicateKind("test.same")) {
            _ = try await DuplicateKindBundle.answer(
                verb: "placeholder", request: Data(request(kind: "test.same").utf8))
        }
    }
}
