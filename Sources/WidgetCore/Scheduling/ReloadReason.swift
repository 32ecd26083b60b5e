/// Why a reload happens. Decides whether it counts against the budget (docs/overview.md,
/// Budget).
public enum ReloadReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// First load after an instance is added. Exempt.
    case initial
    /// The instance's configuration changed. Exempt.
    case configuration
    /// The host marked the request user-initiated (a tap). Exempt.
    case userInitiated
    /// A host performed one of the instance's actions (a button in the entry). Exempt up to
    /// `action-reloads-per-minute`; beyond it the reload is `requested`.
    case action
    /// An app asked: `reloadTimelines(ofKind:)` / `reloadAllTimelines()`. Budgeted.
    case requested
    /// The timeline's reload policy came due. Budgeted.
    case policy
    /// The previous attempt failed. Budgeted, so a failing provider cannot spin.
    case retry
    /// Only in `schedule`: a budgeted reload held because no host has shown the instance for
    /// `hidden-after`; it runs when a host shows it again. Never launched under this name.
    case hidden
    /// Only in `schedule`: a budgeted reload held while the session is locked
    /// (`hold-when-locked`); it runs when the session unlocks. Never launched under this name.
    case locked
    /// Only in `schedule`: a budgeted reload held while the power profile is power-saver
    /// (`hold-in-power-saver`); it runs when the profile changes. Never launched under this name.
    case powerSaver = "power-saver"

    public var isExempt: Bool {
        switch self {
        case .initial, .configuration, .userInitiated, .action: true
        case .requested, .policy, .retry, .hidden, .locked, .powerSaver: false
        }
    }
}
