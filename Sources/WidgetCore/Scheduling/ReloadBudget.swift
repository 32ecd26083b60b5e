import Foundation

/// The rolling 24-hour reload budget: at most `limit` budgeted reloads in any 24 hours, at
/// least `spacing` apart. Only budgeted reloads are recorded; exempt ones neither consume
/// nor wait. The rules live here; each instance's budgeted reloads are a `BudgetHistory`
/// in its record's `ReloadTiming`.
public struct ReloadBudget: Sendable, Equatable {
    public static let window: TimeInterval = 86_400

    public var limit: Int
    public var spacing: TimeInterval
    public var enabled: Bool
    /// A budgeted reload of an instance no host has shown for this long is held until one
    /// shows it (0: never held). An instance no host has ever shown is never held: a daemon
    /// whose hosts report nothing keeps its widgets fresh as before.
    public var hiddenAfter: TimeInterval
    /// The daily limit of an instance shown once but not in the last 24 hours.
    public var hiddenLimit: Int
    /// What the session makes of the budget now (docs/clues.md): every budgeted reload held
    /// (power-saver, or the session locked, but for instances a host shows), and `limit`
    /// lowered on battery.
    public var session = SessionBudget()

    public init(limit: Int, spacing: TimeInterval, enabled: Bool, hiddenAfter: TimeInterval = 0, hiddenLimit: Int? = nil) {
        self.limit = limit
        self.spacing = spacing
        self.enabled = enabled
        self.hiddenAfter = hiddenAfter
        self.hiddenLimit = hiddenLimit ?? limit
    }

    /// Whether a reload for `reason` is subject to the budget at all.
    public func applies(to reason: ReloadReason) -> Bool {
        enabled && !reason.isExempt
    }

    /// The earliest instant at which one more budgeted reload is allowed: after the spacing
    /// since the last one, and once enough old reloads have left the 24-hour window.
    public func nextAllowed(_ history: BudgetHistory, limit: Int? = nil) -> Date? {
        let limit = limit ?? self.limit
        guard let last = history.last else { return nil }
        var earliest = last.addingTimeInterval(spacing)
        if limit > 0, history.count >= limit {
            let mustExpire = history[history.count - limit]
            earliest = max(earliest, mustExpire.addingTimeInterval(Self.window))
        }
        return earliest
    }

    /// When a reload wanted at `wanted` may run, for an instance a host last showed at
    /// `shown` (nil: never). Once 24 hours have passed since then, the hidden limit applies.
    public func effectiveDate(
        _ history: BudgetHistory, wanted: Date, reason: ReloadReason, shown: Date? = nil
    ) -> Date {
        guard applies(to: reason), let allowed = nextAllowed(history) else { return wanted }
        let date = max(wanted, allowed)
        guard hiddenLimit < limit, let shown, date >= shown.addingTimeInterval(Self.window),
            let lowered = nextAllowed(history, limit: hiddenLimit)
        else { return date }
        return max(date, lowered)
    }

    /// The daily limit that applies at `now` to an instance a host last showed at `shown`.
    public func limit(shown: Date?, now: Date) -> Int {
        guard let shown, now >= shown.addingTimeInterval(Self.window) else { return limit }
        return min(limit, hiddenLimit)
    }

    /// Whether a reload for `reason` that may run at `date` is held because no host has shown
    /// the instance since `shown` for `hiddenAfter`.
    public func holds(_ reason: ReloadReason, at date: Date, shown: Date?) -> Bool {
        guard applies(to: reason), hiddenAfter > 0, let shown else { return false }
        return date >= shown.addingTimeInterval(hiddenAfter)
    }

    /// Why a reload of `instance` for `reason` that may run at `date` is held, as `schedule`
    /// names it (`power-saver`, `locked`, `hidden`), or nil when it is not. Exempt reloads
    /// never are.
    public func hold(_ reason: ReloadReason, at date: Date, shown: Date?, instance: InstanceID) -> ReloadReason? {
        guard applies(to: reason) else { return nil }
        if session.powerSaver { return .powerSaver }
        if session.locked, !session.shownWhileLocked.contains(instance) { return .locked }
        return holds(reason, at: date, shown: shown) ? .hidden : nil
    }

    /// Budgeted reloads in the 24 hours before `now`.
    public func used(_ history: BudgetHistory, now: Date) -> Int {
        let start = now.addingTimeInterval(-Self.window)
        return history.count { $0 > start && $0 <= now }
    }
}
