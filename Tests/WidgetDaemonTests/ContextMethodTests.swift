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

/// The budget follows what the watchers report, through the engine's step: `schedule` says why
/// a reload is held, and the hold's end runs it at once.
@Suite struct SessionBudgetEngineTests {
    static let answer = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":1}],"policy":{"after":"2026-01-05T09:00:00Z"}}"#

    @Test func aLockedSessionHoldsTheReloadAndUnlockingRunsItInTheSameStep() async throws {
        let harness = try Harness(answer: Self.answer)
        let id = try await harness.add()
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        #expect(harness.runner.launches == 1)
        await harness.inspect { $0.observe([.source(.logind, available: true), .locked(true)]) }
        let schedule = (await harness.call("schedule")).result as? [[String: Any]] ?? []
        let item = try #require(schedule.first { $0["instance"] as? String == id })
        #expect(item["reason"] as? String == "locked")
        #expect(item["deferredBy"] as? String == "locked")
        #expect(item["heldReason"] as? String == "policy")
        let budget = (await harness.call("budget", #"{"id":"\#(id)"}"#)).result as? [String: Any]
        #expect(budget?["held"] as? String == "locked")
        _ = await harness.call("clock.advance", #"{"seconds":7200}"#)
        #expect(harness.runner.launches == 1, "held while locked")
        await harness.inspect { $0.observe([.locked(false)]) }
        _ = await harness.call("clock.advance", #"{"seconds":0}"#)
        #expect(harness.runner.launches == 2, "run when the session unlocks")
    }

    @Test func onBatteryBudgetSaysTheLimitIsLoweredAndWhy() async throws {
        let harness = try Harness(answer: Self.answer)
        let id = try await harness.add()
        await harness.inspect { $0.observe([.onBattery(true)]) }
        let budget = try #require((await harness.call("budget", #"{"id":"\#(id)"}"#)).result as? [String: Any])
        #expect(budget["limit"] as? Int == 35)
        #expect(budget["fullLimit"] as? Int == 70)
        #expect(budget["loweredBy"] as? [String] == ["battery"])
        await harness.inspect { $0.observe([.onBattery(false)]) }
        let restored = try #require((await harness.call("budget", #"{"id":"\#(id)"}"#)).result as? [String: Any])
        #expect(restored["limit"] as? Int == 70 && restored["fullLimit"] == nil)
    }
}
