/// One thing a session source reported, as the engine receives it. The daemon's watchers
/// turn bus signals into readings; the pure state turns readings into the context that clues
/// and budgets are evaluated against. `nil` means the source does not know (or is missing):
/// a clue on an unknown value never holds.
public enum ContextReading: Sendable, Equatable {
    /// logind's `LockedHint` of the session (or, for the system service, whether every session is locked).
    case locked(Bool?)
    /// logind's `IdleHint`.
    case idle(Bool?)
    /// UPower's `OnBattery`.
    case onBattery(Bool?)
    /// power-profiles-daemon's `ActiveProfile` (`power-saver`, `balanced`, `performance`).
    case powerProfile(String?)
    /// Whether BlueZ reports a connected headset or headphones.
    case headphones(Bool?)
    /// GeoClue2's last location. Held in memory only: never written, logged or answered.
    case location(GeoPoint?)
    /// A source appeared on its bus (true) or went away (false).
    case source(ContextSource, available: Bool)
}
