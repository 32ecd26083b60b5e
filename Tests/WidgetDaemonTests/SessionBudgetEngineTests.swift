import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon
@testable import WidgetTestSupport

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
