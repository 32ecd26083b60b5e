/// What the session makes of the reload budget now (docs/clues.md, "Budgets that follow the
/// session"): the state works it out from the context and `[budget]`, and the scheduler's
/// decisions read it.
public struct SessionBudget: Sendable, Equatable {
    /// Budgeted reloads are held while the session is locked...
    public var locked = false
    /// ...but for the instances a host reports visible now (a lock-screen host).
    public var shownWhileLocked: Set<InstanceID> = []
    /// Budgeted reloads are held while the power profile is power-saver.
    public var powerSaver = false
    /// On battery, with `ReloadBudget.limit` lowered to `battery-daily-limit`; `fullLimit` is
    /// the limit on AC.
    public var onBattery = false
    public var fullLimit: Int?

    public init() {}
}
