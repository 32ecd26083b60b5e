import Foundation

/// What widgetd knows of the session now, as its sources and hosts reported it, each value
/// with the date it changed. Pure: the watchers' readings and the hosts' `context.set` come in
/// with the time they are taken at. Held in memory only: a restart starts from nothing known,
/// and the sources and hosts report again.
///
/// The location is held here and nowhere else: it is read only to decide whether an entry's
/// region holds, and never leaves the state (docs/clues.md, "Privacy of the location").
public struct ContextState: Sendable, Equatable {
    public private(set) var locked = ContextValue<Bool>()
    public private(set) var idle = ContextValue<Bool>()
    public private(set) var onBattery = ContextValue<Bool>()
    public private(set) var powerProfile = ContextValue<String>()
    public private(set) var headphones = ContextValue<Bool>()
    /// Internal: nothing outside the core reads the coordinates.
    private(set) var location = ContextValue<GeoPoint>()
    /// The values hosts reported, by key.
    public private(set) var hostValues: [String: ContextValue<String>] = [:]
    /// Whether each source is on its bus (nil: no word of it yet).
    public private(set) var sources: [ContextSource: ContextValue<Bool>] = [:]

    public init() {}

    /// Whether a location is known (the only thing of it said outside the core).
    public var locationKnown: Bool { location.value != nil }

    /// When the location was last known or lost.
    public var locationSince: Date? { location.since }

    /// Whether the power profile is power-saver (nil: unknown).
    public var powerSaver: Bool? { powerProfile.value.map { $0 == "power-saver" } }

    /// Takes `readings` at `now`, in order; answers what changed.
    public mutating func observe(_ readings: [ContextReading], at now: Date) -> ContextChange {
        var change = ContextChange()
        for reading in readings { change.formUnion(observe(reading, at: now)) }
        return change
    }

    /// Takes the host values at `now`: a value sets its key, nil removes it.
    public mutating func setHostValues(_ values: [String: String?], at now: Date) -> ContextChange {
        var change = ContextChange()
        for (key, value) in values {
            if let value {
                var held = hostValues[key] ?? ContextValue()
                if held.take(value, at: now) || hostValues[key] == nil { change.hostKeys.insert(key) }
                hostValues[key] = held
            } else if hostValues.removeValue(forKey: key) != nil {
                change.hostKeys.insert(key)
            }
        }
        if !change.hostKeys.isEmpty { change.clues.insert(.context) }
        return change
    }

    private mutating func observe(_ reading: ContextReading, at now: Date) -> ContextChange {
        var change = ContextChange()
        switch reading {
        case .locked(let value):
            if locked.take(value, at: now) {
                change.clues.insert(.session)
                change.budget = true
            }
        case .idle(let value):
            _ = idle.take(value, at: now)
        case .onBattery(let value):
            if onBattery.take(value, at: now) {
                change.clues.insert(.power)
                change.budget = true
            }
        case .powerProfile(let value):
            if powerProfile.take(value, at: now) { change.budget = true }
        case .headphones(let value):
            if headphones.take(value, at: now) { change.clues.insert(.headphones) }
        case .location(let value):
            if location.take(value, at: now) { change.clues.insert(.location) }
        case .source(let source, let available):
            var held = sources[source] ?? ContextValue()
            if held.take(available, at: now) { change.sources.insert(source) }
            sources[source] = held
            // A source that went away no longer knows: its clues are unknown until it is back
            // and reports again.
            if !available { change.formUnion(forget(source, at: now)) }
        }
        return change
    }

    private mutating func forget(_ source: ContextSource, at now: Date) -> ContextChange {
        switch source {
        case .logind: return observe([.locked(nil), .idle(nil)], at: now)
        case .upower: return observe([.onBattery(nil)], at: now)
        case .powerProfiles: return observe([.powerProfile(nil)], at: now)
        case .geoclue: return observe([.location(nil)], at: now)
        case .bluez: return observe([.headphones(nil)], at: now)
        }
    }
}
