import Foundation

/// One thing the context holds and since when: `value` nil while its source does not know
/// (or is missing), and `since` the date it last changed (nil: never reported).
public struct ContextValue<Value: Sendable & Equatable>: Sendable, Equatable {
    public internal(set) var value: Value?
    public internal(set) var since: Date?

    public init(value: Value? = nil, since: Date? = nil) {
        self.value = value
        self.since = since
    }

    /// Takes `value` at `now`; true when it differs from the value held.
    mutating func take(_ new: Value?, at now: Date) -> Bool {
        guard new != value || since == nil else { return false }
        let changed = new != value
        value = new
        since = now
        return changed
    }
}
