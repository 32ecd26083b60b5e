import WidgetCore

/// What the session's services have said, folded into the context the engine receives: the
/// pure part of the watchers, with no bus. Each event returns the readings that changed
/// because of it (nothing when a value is as it was), so a service that repeats itself costs
/// the engine nothing.
///
/// Sessions: only the sessions of `scope` with a seat (the local, graphical ones) count, since
/// a remote login never locks; the session is locked when every one of them is (one unlocked
/// seat means someone may be looking), idle when every one of them is. With no such session
/// both are unknown. Headphones: any connected device that is a headset.
struct SessionTracker: Sendable {
    let scope: SessionScope
    /// Objects tracked per service (sessions, Bluetooth devices), `[limits]`
    /// `max-session-objects`: a service that announces more is not followed past it, so a
    /// hostile or broken one cannot grow widgetd's memory.
    let maxTrackedObjects: Int
    private(set) var present: Set<ContextSource> = []
    private(set) var sessions: [String: SessionHints] = [:]
    private(set) var devices: [String: BluetoothDevice] = [:]
    private(set) var onBattery: Bool?
    private(set) var profile: String?
    private(set) var location: GeoPoint?
    /// The readings last handed over, by what they are about.
    private var reported: [ReadingKey: ContextReading] = [:]

    init(scope: SessionScope, maxTrackedObjects: Int = LimitSettings().maxSessionObjects) {
        self.scope = scope
        self.maxTrackedObjects = maxTrackedObjects
    }

    /// What `reading` is about: a later reading of the same key replaces it.
    enum ReadingKey: Hashable, Sendable {
        case locked, idle, onBattery, powerProfile, headphones, location
        case source(ContextSource)
    }

    static func key(_ reading: ContextReading) -> ReadingKey {
        switch reading {
        case .locked: .locked
        case .idle: .idle
        case .onBattery: .onBattery
        case .powerProfile: .powerProfile
        case .headphones: .headphones
        case .location: .location
        case .source(let source, _): .source(source)
        }
    }

    /// The readings the state gives now, every one.
    var readings: [ContextReading] {
        let seated = present.contains(.logind) && !sessions.isEmpty ? Array(sessions.values) : nil
        var all: [ContextReading] = ContextSource.allCases.map { .source($0, available: present.contains($0)) }
        all.append(.locked(seated.map { $0.allSatisfy(\.locked) }))
        all.append(.idle(seated.map { $0.allSatisfy(\.idle) }))
        all.append(.onBattery(present.contains(.upower) ? onBattery : nil))
        all.append(.powerProfile(present.contains(.powerProfiles) ? profile : nil))
        all.append(.headphones(present.contains(.bluez) ? devices.values.contains { $0.connected && $0.isHeadset } : nil))
        all.append(.location(present.contains(.geoclue) ? location : nil))
        return all
    }

    /// Applies `event`; returns the readings that changed, sources first.
    mutating func apply(_ event: SessionEvent) -> [ContextReading] {
        fold(event)
        return changes()
    }

    /// Applies every event; returns the readings that changed over all of them.
    mutating func apply(_ events: [SessionEvent]) -> [ContextReading] {
        for event in events { fold(event) }
        return changes()
    }

    private mutating func fold(_ event: SessionEvent) {
        switch event {
        case .appeared(let source):
            present.insert(source)
        case .vanished(let source):
            present.remove(source)
            forget(source)
        case .session(let path, let uid, let seated):
            guard scope.counts(uid: uid), seated, sessions[path] == nil, sessions.count < maxTrackedObjects else { return }
            sessions[path] = SessionHints()
        case .sessionRemoved(let path):
            sessions[path] = nil
        case .sessionProperties(let path, let properties):
            guard var hints = sessions[path] else { return }
            if case .bool(let value)? = properties["LockedHint"] { hints.locked = value }
            if case .bool(let value)? = properties["IdleHint"] { hints.idle = value }
            sessions[path] = hints
        case .upower(let properties):
            if case .bool(let value)? = properties["OnBattery"] { onBattery = value }
        case .powerProfiles(let properties):
            if case .string(let value)? = properties["ActiveProfile"] { profile = value }
        case .device(let path, let properties):
            guard devices[path] != nil || devices.count < maxTrackedObjects else { return }
            devices[path, default: BluetoothDevice()].update(properties)
        case .deviceRemoved(let path):
            devices[path] = nil
        case .location(let point):
            location = point
        }
    }

    /// What a service that went away said is forgotten: a restart reports it all again.
    private mutating func forget(_ source: ContextSource) {
        switch source {
        case .logind: sessions = [:]
        case .upower: onBattery = nil
        case .powerProfiles: profile = nil
        case .bluez: devices = [:]
        case .geoclue: location = nil
        }
    }

    /// The readings that differ from those last handed over, which they then are.
    private mutating func changes() -> [ContextReading] {
        var changed: [ContextReading] = []
        for reading in readings {
            let key = Self.key(reading)
            guard reported[key] != reading else { continue }
            reported[key] = reading
            changed.append(reading)
        }
        return changed
    }
}
