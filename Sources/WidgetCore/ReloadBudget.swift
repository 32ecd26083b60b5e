import Foundation

/// Per-instance rolling 24-hour budget with a minimum spacing between budgeted reloads.
/// Only budgeted reloads are recorded here; exempt ones neither consume nor wait.
public struct ReloadBudget: Sendable {
    public static let window: TimeInterval = 86_400

    public var limit: Int
    public var spacing: TimeInterval
    public var enabled: Bool
    private var history: [InstanceID: [Date]] = [:]

    public init(limit: Int, spacing: TimeInterval, enabled: Bool) {
        self.limit = limit
        self.spacing = spacing
        self.enabled = enabled
    }

    /// Whether a reload for `reason` is subject to the budget at all.
    public func applies(to reason: ReloadReason) -> Bool {
        enabled && !reason.isExempt
    }

    /// The earliest instant at which one more budgeted reload is allowed: after the spacing
    /// since the last one, and once enough old reloads have left the 24-hour window.
    public func nextAllowed(_ id: InstanceID) -> Date? {
        guard let dates = history[id], let last = dates.last else { return nil }
        var earliest = last.addingTimeInterval(spacing)
        if dates.count >= limit {
            let mustExpire = dates[dates.count - limit]
            earliest = max(earliest, mustExpire.addingTimeInterval(Self.window))
        }
        return earliest
    }

    /// When a reload wanted at `wanted` may run.
    public func effectiveDate(_ id: InstanceID, wanted: Date, reason: ReloadReason) -> Date {
        guard applies(to: reason), let allowed = nextAllowed(id) else { return wanted }
        return max(wanted, allowed)
    }

    public mutating func record(_ id: InstanceID, at date: Date) {
        var dates = history[id, default: []]
        dates.append(date)
        dates.removeAll { $0 <= date.addingTimeInterval(-Self.window) }
        history[id] = dates
    }

    /// Budgeted reloads in the 24 hours before `now`.
    public func used(_ id: InstanceID, now: Date) -> Int {
        let start = now.addingTimeInterval(-Self.window)
        return history[id]?.count { $0 > start && $0 <= now } ?? 0
    }

    public func lastReload(_ id: InstanceID) -> Date? { history[id]?.last }

    public mutating func restore(_ id: InstanceID, dates: [Date]) {
        history[id] = dates.sorted()
    }

    public mutating func forget(_ id: InstanceID) {
        history[id] = nil
    }
}
