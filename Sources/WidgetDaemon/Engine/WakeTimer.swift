import Foundation

/// An armed wake-up timer: its number (which tells a firing of this timer from a cancelled
/// one) and how to cancel it.
struct WakeTimer {
    var number: Int
    var cancel: @Sendable () -> Void
}
