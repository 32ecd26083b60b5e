import Foundation
@testable import WidgetCore
import WidgetProtocol
import Testing
@testable import WidgetTestSupport

/// Budgets that follow the session (docs/clues.md): budgeted reloads held while locked (but
/// for instances a host shows) and in power-saver, released when the hold ends; the battery
/// limit on battery; exempt reloads and entry changes never held.
@Suite struct SessionBudgetTests {
    static let hour: TimeInterval = 3600

    /// One `k.clock` instance whose first timeline (entries now and in 30 minutes) wants a
    /// policy reload in an hour.
    static func loaded(_ settings: DaemonSettings = DaemonSettings()) throws -> (DaemonState, InstanceID) {
        var state = makeState(settings: settings)
        let id = try state.added().0
        let launch = try #require(state.takeDue(at: t0).launches.first)
        let timeline = DaemonState.timeline([0, 1800], policy: .after(t0 + hour))
        state.apply(state.planLaunchResult(launch, outcomes: [.timeline(timeline)], at: t0, evaluate: false))
        return (state, id)
    }

    @Test func aLockedSessionHoldsBudgetedReloadsAndUnlockingRunsThem() throws {
        var (state, id) = try Self.loaded()
        _ = state.observe([.locked(true)], now: t0 + 60)
        let held = try #require(state.scheduler.pendingReload(for: id, in: state.instances))
        #expect(held.reason == .locked && held.heldReason == .policy)
        #expect(ScheduleItem(held).deferredBy == "locked")
        // The entry change at 08:30 still happens; the reload at 09:00 does not.
        let locked = state.takeDue(at: t0 + 2 * Self.hour)
        #expect(locked.launches.isEmpty)
        #expect(locked.events.contains { if case .entryChange = $0 { true } else { false } })
        _ = state.observe([.locked(false)], now: t0 + 2 * Self.hour)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .policy)
        let unlocked = state.takeDue(at: t0 + 2 * Self.hour)
        #expect(unlocked.launches.map(\.reasons) == [[.policy]])
    }

    @Test func exemptReloadsAreNeverHeld() throws {
        var (state, id) = try Self.loaded()
        _ = state.observe([.locked(true), .powerProfile("power-saver")], now: t0 + 60)
        state.apply(state.planReload([id], userInitiated: true, at: t0 + 120))
        #expect(state.takeDue(at: t0 + 120).launches.map(\.reasons) == [[.userInitiated]])
    }

    @Test func anInstanceAHostShowsIsNotHeldWhileLocked() throws {
        var (state, id) = try Self.loaded()
        _ = state.observe([.locked(true)], now: t0 + 60)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .locked)
        state.apply(try state.planVisible([id], at: t0 + 120))
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .policy)
        #expect(state.takeDue(at: t0 + Self.hour).launches.count == 1)
        // The lock-screen host stops showing it: held again.
        state.apply(try state.planVisible([], at: t0 + Self.hour + 60))
        state.scheduler.request(id, reason: .requested, at: t0 + 2 * Self.hour, in: &state.instances)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .locked)
    }

    @Test func powerSaverHoldsUntilTheProfileChanges() throws {
        var (state, id) = try Self.loaded()
        _ = state.observe([.powerProfile("power-saver")], now: t0 + 60)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .powerSaver)
        #expect(state.takeDue(at: t0 + 2 * Self.hour).launches.isEmpty)
        _ = state.observe([.powerProfile("balanced")], now: t0 + 2 * Self.hour)
        #expect(state.takeDue(at: t0 + 2 * Self.hour).launches.count == 1)
    }

    @Test func theSwitchesTurnTheHoldsOff() throws {
        var settings = DaemonSettings()
        settings.holdWhenLocked = false
        settings.holdInPowerSaver = false
        var (state, id) = try Self.loaded(settings)
        _ = state.observe([.locked(true), .powerProfile("power-saver")], now: t0 + 60)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .policy)
    }

    @Test func onBatteryTheBatteryLimitAppliesAndACRestoresTheFullOne() throws {
        var (state, id) = try Self.loaded()
        #expect(state.budgetLimit(id, now: t0) == 70)
        _ = state.observe([.onBattery(true)], now: t0)
        #expect(state.budgetLimit(id, now: t0) == 35)
        #expect(state.scheduler.budget.session.fullLimit == 70)
        _ = state.observe([.onBattery(false)], now: t0)
        #expect(state.budgetLimit(id, now: t0) == 70)
        var settings = DaemonSettings()
        settings.batteryDailyLimit = 2
        settings.minimumSpacing = 0
        var (small, other) = try Self.loaded(settings)
        _ = small.observe([.onBattery(true)], now: t0)
        #expect(small.budgetLimit(other, now: t0) == 2)
        small.restoreHistory(other, dates: [t0 + 10, t0 + 20])
        // Two budgeted reloads in the window: the next waits until the first leaves it.
        #expect(small.scheduler.pendingReload(for: other, in: small.instances)?.due == t0 + 10 + 86_400)
    }

    @Test func anUnknownValueChangesNothing() throws {
        var (state, id) = try Self.loaded()
        _ = state.observe([.locked(nil), .onBattery(nil), .powerProfile(nil)], now: t0)
        #expect(state.scheduler.pendingReload(for: id, in: state.instances)?.reason == .policy)
        #expect(state.budgetLimit(id, now: t0) == 70)
    }
}


extension DaemonState {
    /// The daily limit that applies to the instance at `now`, as `budget` answers it.
    fileprivate func budgetLimit(_ id: InstanceID, now: Date) -> Int {
        scheduler.budget.limit(shown: instances[id]?.hiddenSince, now: now)
    }

    /// Gives the instance these budgeted reloads, as a restart restores them.
    fileprivate mutating func restoreHistory(_ id: InstanceID, dates: [Date]) {
        guard let handle = instances.handle(of: id) else { return }
        instances.changeTiming(of: handle) { timing, _ in timing.history = BudgetHistory(dates) }
        scheduler.reschedule(id, in: instances)
    }
}
