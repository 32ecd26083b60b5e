import Foundation
import NIOCore

/// When the engine wakes by itself, what STATUS= last said, and the step in progress.
struct WakeState {
    /// The timer towards the next deadline (real clock), and the deadline it was set for.
    var timer: Scheduled<Void>?
    var timerFor: Date?
    /// What the last STATUS= text was built from, so an unchanged summary is not rebuilt.
    var statusInputs: StatusInputs?
    /// A step's consequences are being carried out; a nested call only asks for another round.
    var settling = false
    var settleAgain = false
}

/// A write that failed: its short cause (logged once per cause) and its message.
struct StorageFault {
    var cause: String
    var message: String
}
