import Foundation

/// An instance's current run of identical provider failures, so a provider failing at every
/// retry is logged once: the first failure of a cause is reported in full, repeats of the same
/// cause are only counted, and the count is reported once, when the cause changes or the
/// instance recovers.
public struct FailureStreak: Sendable, Hashable {
    /// What "the same way" means: the class of the failure (time-out, exit status 3, signal
    /// 11, ...), not its text, which may carry a varying stderr line or garbage.
    public var cause: String
    /// The text of the last failure, for the summary.
    public var message: String
    /// Failures since the one reported.
    public var repeats = 0

    public init(cause: String, message: String, repeats: Int = 0) {
        self.cause = cause
        self.message = message
        self.repeats = repeats
    }

    /// What the log does with one more failure.
    public enum Verdict: Sendable, Equatable {
        /// A new cause: log it. `ended` is the run of another cause that it ends, when that
        /// run had unreported repeats.
        case report(ended: FailureStreak?)
        /// Same cause as the last failure: counted, not logged.
        case repeated(times: Int)
    }

    /// The streak after a failure with `cause`, and what to log about it.
    public static func after(
        _ streak: FailureStreak?, cause: String, message: String
    ) -> (streak: FailureStreak, verdict: Verdict) {
        if var streak, streak.cause == cause {
            streak.repeats += 1
            streak.message = message
            return (streak, .repeated(times: streak.repeats))
        }
        let ended = streak.flatMap { $0.repeats > 0 ? $0 : nil }
        return (FailureStreak(cause: cause, message: message), .report(ended: ended))
    }
}
