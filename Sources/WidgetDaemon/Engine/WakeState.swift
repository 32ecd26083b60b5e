import Foundation

/// When the engine wakes by itself, what STATUS= last said, and the step in progress.
struct WakeState {
    /// The timer towards the next deadline (real clock), and the deadline it was set for.
    var timer: WakeTimer?
    var timerFor: Date?
    /// Timers armed, timer firings that ran a pass, and passes over what is due (`settle`), since
    /// the start: a test reads them to see that one deadline costs one timer and one pass.
    var timersArmed = 0
    var timersRun = 0
    var duePasses = 0
    /// logind's sleeps and resumes seen (`PrepareForSleep`), for `status` and tests.
    var sleeps = 0
    var resumes = 0
    /// What the last STATUS= text was built from, so an unchanged summary is not rebuilt.
    var statusInputs: StatusInputs?
    /// A step's consequences are being carried out; a nested call only asks for another round.
    var settling = false
    var settleAgain = false
}
