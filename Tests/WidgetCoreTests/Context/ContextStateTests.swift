import Foundation
import Testing
@testable import WidgetCore
@testable import WidgetTestSupport

/// The context as the pure state takes it in: readings and host values, each with the date it
/// changed, sources that come and go, and the limits on what hosts may hold.
@Suite struct ContextStateTests {
    @Test func aReadingIsHeldWithTheDateItChanged() {
        var context = ContextState()
        let change = context.observe([.locked(true), .onBattery(false)], at: t0)
        #expect(change.clues == [.session, .power])
        #expect(change.budget)
        #expect(context.locked.value == true && context.locked.since == t0)
        // The same value again changes nothing, not even its date.
        let again = context.observe([.locked(true)], at: t0 + 60)
        #expect(again.isEmpty)
        #expect(context.locked.since == t0)
        _ = context.observe([.locked(false)], at: t0 + 120)
        #expect(context.locked.value == false && context.locked.since == t0 + 120)
    }

    @Test func aSourceThatGoesAwayLeavesItsValuesUnknown() {
        var context = ContextState()
        _ = context.observe([.source(.bluez, available: true), .headphones(true)], at: t0)
        #expect(context.sources[.bluez]?.value == true)
        let change = context.observe([.source(.bluez, available: false)], at: t0 + 10)
        #expect(change.sources == [.bluez])
        #expect(change.clues == [.headphones])
        #expect(context.headphones.value == nil)
        #expect(context.sources[.bluez]?.value == false && context.sources[.bluez]?.since == t0 + 10)
    }

    @Test func aLocationIsOnlyKnownOrUnknownOutsideTheCore() {
        var context = ContextState()
        #expect(!context.locationKnown)
        let change = context.observe([.location(GeoPoint(latitude: 52.52, longitude: 13.405, accuracy: 20))], at: t0)
        #expect(change.clues == [.location])
        #expect(context.locationKnown && context.locationSince == t0)
    }

    @Test func theIdleHintAndTheProfileAreNoClues() {
        var context = ContextState()
        #expect(context.observe([.idle(true)], at: t0).clues.isEmpty)
        let change = context.observe([.powerProfile("power-saver")], at: t0)
        #expect(change.clues.isEmpty && change.budget)
        #expect(context.powerSaver == true)
    }

    @Test func hostValuesAreSetAndRemoved() throws {
        var state = makeState()
        _ = try state.observe(hostValues: ["room": "kitchen", "mode": "focus"], now: t0)
        #expect(state.context.hostValues["room"]?.value == "kitchen")
        #expect(state.context.hostValues["room"]?.since == t0)
        _ = try state.observe(hostValues: ["room": "kitchen", "mode": nil], now: t0 + 5)
        #expect(state.context.hostValues["room"]?.since == t0)
        #expect(state.context.hostValues["mode"] == nil)
        #expect(state.context.setHostValues(["room": "hall"], at: t0 + 9).hostKeys == ["room"])
    }

    @Test func hostValuesPastTheirLimitsAreRefusedWhole() throws {
        var settings = DaemonSettings()
        settings.limits.maxContextValues = 2
        settings.limits.maxContextValueBytes = 16
        var state = makeState(settings: settings)
        _ = try state.observe(hostValues: ["a": "1", "b": "2"], now: t0)
        #expect(throws: StateError.self) { _ = try state.observe(hostValues: ["c": "3"], now: t0) }
        #expect(state.context.hostValues["c"] == nil)
        // Removing one in the same request makes room.
        _ = try state.observe(hostValues: ["a": nil, "c": "3"], now: t0)
        #expect(Set(state.context.hostValues.keys) == ["b", "c"])
        #expect(throws: StateError.self) { _ = try state.observe(hostValues: ["b": String(repeating: "x", count: 16)], now: t0) }
        #expect(state.context.hostValues["b"]?.value == "2")
        #expect(throws: StateError.self) { _ = try state.observe(hostValues: ["": "x"], now: t0) }
    }

    @Test func theJournalLineNamesNoCoordinatesAndNoValues() throws {
        var state = makeState()
        let plan = state.observe([.location(GeoPoint(latitude: 52.123456, longitude: 13.654321, accuracy: 5))], now: t0)
        let host = try state.observe(hostValues: ["room": "secret-room"], now: t0)
        let text = (plan.notes + host.notes).map { "\($0.message) \($0.metadata)" }.joined()
        #expect(text.contains("location"))
        #expect(!text.contains("52.12") && !text.contains("13.65") && !text.contains("secret-room"))
    }

    @Test func noInstanceUsesALocationClueInAnEmptyState() {
        #expect(!makeState().usesLocationClue)
    }

    @Test func settingsReadTheContextAndBudgetKeys() throws {
        let settings = try DaemonSettings.parse("""
            [budget]
            battery-daily-limit = 20
            hold-when-locked = off
            hold-in-power-saver = false
            [context]
            location = off
            [limits]
            max-context-values = 3
            max-context-value-bytes = 100
            max-session-objects = 16
            """)
        #expect(settings.batteryDailyLimit == 20)
        #expect(!settings.holdWhenLocked && !settings.holdInPowerSaver)
        #expect(!settings.context.location)
        #expect(settings.limits.maxContextValues == 3 && settings.limits.maxContextValueBytes == 100)
        #expect(settings.limits.maxSessionObjects == 16)
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[limits]\nmax-session-objects = 0") }
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[context]\nlocation = maybe") }
        #expect(throws: SettingsError.self) { try DaemonSettings.parse("[context]\ngps = on") }
    }
}
