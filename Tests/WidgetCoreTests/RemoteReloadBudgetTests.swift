import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// The remote reload budget: per target per rolling day, deferred beyond, never dropped.
@Suite("Remote reload budget")
struct RemoteReloadBudgetTests {
    let day = RemoteReloadBudget.window

    @Test func withinTheLimitReloadsApply() {
        var budget = RemoteReloadBudget(limit: 2)
        #expect(budget.admit("a", at: t0) == .apply)
        #expect(budget.admit("a", at: t0 + 60) == .apply)
        // Targets count apart.
        #expect(budget.admit("b", at: t0 + 60) == .apply)
        #expect(budget.nextRelease == nil)
    }

    @Test func beyondTheLimitOneDeferralWaitsForTheWindow() {
        var budget = RemoteReloadBudget(limit: 2)
        _ = budget.admit("a", at: t0)
        _ = budget.admit("a", at: t0 + 100)
        #expect(budget.admit("a", at: t0 + 200) == .deferred(until: t0 + day))
        // A second reload of a waiting target joins it: one reload fetches what both asked for.
        #expect(budget.admit("a", at: t0 + 300) == .deferred(until: t0 + day))
        #expect(budget.deferred == ["a": t0 + day])
        #expect(budget.nextRelease == t0 + day)
        // Nothing before its time.
        #expect(budget.release(at: t0 + day - 1).isEmpty)
        #expect(budget.release(at: t0 + day) == ["a"])
        #expect(budget.deferred.isEmpty)
        // The released reload counts: the window now holds t0+100 and t0+day.
        #expect(budget.admit("a", at: t0 + day + 1) == .deferred(until: t0 + 100 + day))
    }

    @Test func aReleaseWithoutRoomWaitsLonger() {
        var budget = RemoteReloadBudget(limit: 1)
        _ = budget.admit("a", at: t0)
        #expect(budget.admit("a", at: t0 + 10) == .deferred(until: t0 + day))
        var lowered = budget
        lowered.setLimit(1)
        #expect(lowered == budget)
        // A raised limit frees it at once.
        budget.setLimit(2)
        #expect(budget.release(at: t0 + 20) == ["a"])
    }

    @Test func survivesEncoding() throws {
        var budget = RemoteReloadBudget(limit: 1)
        _ = budget.admit("a", at: t0)
        _ = budget.admit("a", at: t0 + 1)
        let data = try WidgetJSON.encoder.encode(budget)
        #expect(try WidgetJSON.decoder.decode(RemoteReloadBudget.self, from: data) == budget)
    }
}
