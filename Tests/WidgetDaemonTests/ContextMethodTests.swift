import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

/// `context` and `context.set` through the engine, and the watchers' entry point.
@Suite struct ContextMethodTests {
    @Test func contextSetAnswersWithTheContextAndNullRemoves() async throws {
        let harness = try Harness()
        let set = await harness.call("context.set", #"{"values":{"room":"kitchen","mode":"focus"}}"#)
        let result = try #require(set.result as? [String: Any], "\(set)")
        let host = result["host"] as? [[String: Any]] ?? []
        #expect(host.map { $0["name"] as? String } == ["mode", "room"])
        #expect(host.map { $0["value"] as? String } == ["focus", "kitchen"])
        _ = await harness.call("context.set", #"{"values":{"mode":null}}"#)
        let now = try #require((await harness.call("context")).result as? [String: Any])
        #expect((now["host"] as? [[String: Any]])?.map { $0["name"] as? String } == ["room"])
    }

    @Test func theWatchersReadingsShowAsSourcesAndValuesAndALocationOnlyAsKnown() async throws {
        let harness = try Harness()
        await harness.inspect { engine in
            engine.observe([
                .source(.logind, available: true), .locked(true), .source(.upower, available: false),
                .location(GeoPoint(latitude: 52.52, longitude: 13.405, accuracy: 10)),
            ])
        }
        let answer = await harness.call("context")
        let result = try #require(answer.result as? [String: Any])
        let sources = Dictionary(
            uniqueKeysWithValues: (result["sources"] as? [[String: Any]] ?? []).map { ($0["source"] as? String ?? "", $0["state"] as? String) })
        #expect(sources["logind"] == "available")
        #expect(sources["upower"] == "missing")
        #expect(sources["bluez"] == "unknown")
        let values = Dictionary(
            uniqueKeysWithValues: (result["values"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["value"] as? String) })
        #expect(values["session"] == "locked")
        #expect(values["location"] == "known")
        #expect(values["power"] == .some(nil))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: result), as: UTF8.self)
        #expect(!text.contains("52.52") && !text.contains("13.405"))
    }

    /// The location stays in the state: no provider request, store row or journal line has it.
    @Test func providersNeverReceiveTheLocation() async throws {
        let harness = try Harness()
        await harness.inspect { $0.observe([.location(GeoPoint(latitude: 48.137154, longitude: 11.576124, accuracy: 5))]) }
        _ = try await harness.add()
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        _ = await harness.call("preview", #"{"kind":"k.clock","family":"systemSmall"}"#)
        let requests = harness.runner.requests()
        #expect(requests.count >= 2)
        for request in requests {
            let text = String(decoding: request, as: UTF8.self)
            #expect(!text.contains("48.13") && !text.contains("11.57"), "\(text)")
        }
        let plan = await harness.inspect { engine in
            engine.state.observe([.location(GeoPoint(latitude: 1, longitude: 2, accuracy: 3))], now: engine.now)
        }
        #expect(plan.store.isEmpty, "a location is never stored")
    }

    @Test func contextSetPastItsLimitIsRefusedNamingTheKey() async throws {
        let harness = try Harness()
        let long = String(repeating: "x", count: 2000)
        let answer = await harness.call("context.set", #"{"values":{"k":"\#(long)"}}"#)
        #expect(answer.errorCode == -32014)
        #expect(answer.errorMessage?.contains("max-context-value-bytes") == true)
    }
}
