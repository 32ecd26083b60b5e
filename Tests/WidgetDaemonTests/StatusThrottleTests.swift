import Dispatch
import Synchronization
import Testing
@testable import WidgetDaemon

/// STATUS= pacing: at most one send a second, the latest text always sent in the end.
@Suite struct StatusThrottleTests {
    let start = ContinuousClock.now

    @Test func firstTextGoesOutAtOnce() {
        var throttle = StatusThrottle(interval: .seconds(1))
        #expect(throttle.offer("a", now: start) == .flush(after: .zero))
        #expect(throttle.flush(now: start) == "a")
    }

    @Test func changesWithinASecondWaitAndOnlyTheLatestIsSent() {
        var throttle = StatusThrottle(interval: .seconds(1))
        _ = throttle.offer("a", now: start)
        _ = throttle.flush(now: start)
        #expect(throttle.offer("b", now: start + .milliseconds(200)) == .flush(after: .milliseconds(800)))
        // A flush is already scheduled: later texts only replace what it will send.
        #expect(throttle.offer("c", now: start + .milliseconds(300)) == .none)
        #expect(throttle.offer("d", now: start + .milliseconds(400)) == .none)
        #expect(throttle.flush(now: start + .seconds(1)) == "d")
        #expect(throttle.offer("e", now: start + .seconds(3)) == .flush(after: .zero))
    }

    @Test func theTextAlreadyOutIsNotSentAgain() {
        var throttle = StatusThrottle(interval: .seconds(1))
        _ = throttle.offer("a", now: start)
        _ = throttle.flush(now: start)
        #expect(throttle.offer("a", now: start + .seconds(5)) == .none)
        // Changed and changed back before the flush: nothing to send.
        _ = throttle.offer("b", now: start + .seconds(6))
        _ = throttle.offer("a", now: start + .seconds(6))
        #expect(throttle.flush(now: start + .seconds(6)) == nil)
    }

    @Test func nothingIsSentAfterClose() {
        var throttle = StatusThrottle(interval: .seconds(1))
        _ = throttle.offer("a", now: start)
        throttle.close()
        #expect(throttle.flush(now: start) == nil)
        #expect(throttle.offer("b", now: start + .seconds(2)) == .none)
    }

    /// `sd_notify` blocks when nobody reads NOTIFY_SOCKET; updates must not wait for it.
    @Test func aBlockedSendHoldsUpNoUpdate() {
        let inSend = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let latestSent = DispatchSemaphore(value: 0)
        let sent = Mutex<[String]>([])
        let reporter = StatusReporter(interval: .zero) { text in
            if text == "first" {
                inSend.signal()
                release.wait()
            }
            sent.withLock { $0.append(text) }
            if text == "status 99" { latestSent.signal() }
        }
        reporter.update("first")
        #expect(inSend.wait(timeout: .now() + 30) == .success)
        // The send is stuck; every update still returns.
        for number in 0..<100 { reporter.update("status \(number)") }
        release.signal()
        #expect(latestSent.wait(timeout: .now() + 30) == .success)
        #expect(sent.withLock { $0 } == ["first", "status 99"])
    }
}
