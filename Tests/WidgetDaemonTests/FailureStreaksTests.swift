import Testing
@testable import WidgetDaemon

/// A provider failing the same way at every retry is reported once, then counted.
@Suite struct FailureStreaksTests {
    @Test func repeatsOfACauseAreCountedNotReported() {
        var streaks = FailureStreaks()
        #expect(streaks.failed("a", cause: "exit 3", message: "exited with status 3: down") == .report(ended: nil))
        #expect(streaks.failed("a", cause: "exit 3", message: "exited with status 3: still down") == .repeated(times: 1))
        #expect(streaks.failed("a", cause: "exit 3", message: "exited with status 3: down") == .repeated(times: 2))
        // Another instance has a streak of its own.
        #expect(streaks.failed("b", cause: "exit 3", message: "exited with status 3: down") == .report(ended: nil))
    }

    @Test func aNewCauseEndsTheRunWithItsCount() {
        var streaks = FailureStreaks()
        _ = streaks.failed("a", cause: "timeout", message: "timed out")
        _ = streaks.failed("a", cause: "timeout", message: "timed out")
        let ended = FailureStreaks.Streak(cause: "timeout", message: "timed out", repeats: 1)
        #expect(streaks.failed("a", cause: "signal 11", message: "killed by signal 11") == .report(ended: ended))
        // A cause seen once has no repeats to summarize.
        #expect(streaks.failed("a", cause: "exit 1", message: "exited with status 1") == .report(ended: nil))
    }

    @Test func recoveryEndsTheRunOnce() {
        var streaks = FailureStreaks()
        #expect(streaks.recovered("a") == nil)
        _ = streaks.failed("a", cause: "invalid answer", message: "not JSON")
        _ = streaks.failed("a", cause: "invalid answer", message: "not JSON either")
        #expect(streaks.recovered("a") == FailureStreaks.Streak(cause: "invalid answer", message: "not JSON either", repeats: 1))
        #expect(streaks.recovered("a") == nil)
        #expect(streaks.failed("a", cause: "invalid answer", message: "not JSON") == .report(ended: nil))
    }
}
