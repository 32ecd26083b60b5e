import Foundation

/// An instance's next reload as its timing gives it: why, when it was wanted, and when the
/// budget lets it run.
struct PendingReload {
    var reason: ReloadReason
    var wanted: Date
    /// When it can run: `wanted`, or later when the budget defers it.
    var effective: Date
    /// Why it waits in no wheel (`hidden`, `locked`, `power-saver`); nil while it may run.
    var hold: ReloadReason?

    var held: Bool { hold != nil }
}
