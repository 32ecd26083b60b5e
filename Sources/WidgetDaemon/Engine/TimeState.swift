import Foundation

/// The engine's time: its clock, when it wakes by itself, and whether it is stopping.
struct TimeState {
    var clock: EngineClock
    /// The timer, the STATUS= summary, and the step in progress.
    var wake = WakeState()
    var stopping = false

    /// The daemon's clock: virtual when started with `--clock virtual:`, the wall clock otherwise.
    var now: Date { clock.now }
}
