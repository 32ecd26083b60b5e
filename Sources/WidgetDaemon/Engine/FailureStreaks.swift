import Foundation
import WidgetCore

/// Keeps a provider that fails the same way at every retry from flooding the log: per
/// instance, the cause of its current run of failures and how many repeats went unreported.
/// The first failure of a cause is reported in full; repeats of the same cause are only
/// counted, and the count is reported once, when the cause changes or the instance recovers.
struct FailureStreaks {
    struct Streak: Equatable {
        /// What "the same way" means: the class of the failure (time-out, exit status 3,
        /// signal 11, ...), not its text, which may carry a varying stderr line or garbage.
        var cause: String
        /// The text of the last failure, for the summary.
        var message: String
        /// Failures since the one reported.
        var repeats = 0
    }

    enum Verdict: Equatable {
        /// A new cause: log it. `ended` is the run of another cause that it ends, when that
        /// run had unreported repeats.
        case report(ended: Streak?)
        /// Same cause as the last failure: counted, not logged.
        case repeated(times: Int)
    }

    private var streaks: [InstanceID: Streak] = [:]

    mutating func failed(_ id: InstanceID, cause: String, message: String) -> Verdict {
        if var streak = streaks[id], streak.cause == cause {
            streak.repeats += 1
            streak.message = message
            streaks[id] = streak
            return .repeated(times: streak.repeats)
        }
        let ended = streaks[id].flatMap { $0.repeats > 0 ? $0 : nil }
        streaks[id] = Streak(cause: cause, message: message)
        return .report(ended: ended)
    }

    /// The run of failures a success ends, if there was one: log the recovery once.
    mutating func recovered(_ id: InstanceID) -> Streak? {
        streaks.removeValue(forKey: id)
    }

    mutating func forget(_ id: InstanceID) {
        streaks[id] = nil
    }
}
