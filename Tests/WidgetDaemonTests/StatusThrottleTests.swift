import Glibc
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

    /// The daemon's send never blocks: a status due at once goes out from the caller (the
    /// event loop), so it wakes no other thread; one held back by the pacing comes later.
    @Test func aNonBlockingSendGoesOutFromTheCaller() {
        let sent = Mutex<[(text: String, onCaller: Bool)]>([])
        let paced = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        let reporter = StatusReporter(interval: .milliseconds(200), sendsInline: true) { text in
            sent.withLock { $0.append((text, pthread_equal(pthread_self(), caller) != 0)) }
            if text == "second" { paced.signal() }
        }
        reporter.update("first")
        #expect(sent.withLock { $0.map(\.text) } == ["first"])
        reporter.update("second")
        #expect(paced.wait(timeout: .now() + 30) == .success)
        #expect(sent.withLock { $0.map(\.text) } == ["first", "second"])
        #expect(sent.withLock { $0.map(\.onCaller) } == [true, false])
    }

    /// Nobody listens (no `NOTIFY_SOCKET`): nothing is sent and no thread is asked to.
    @Test func anInactiveReporterSendsNothing() {
        let sent = Mutex(0)
        let reporter = StatusReporter(interval: .zero, active: false) { _ in sent.withLock { $0 += 1 } }
        reporter.update("first")
        reporter.update("second")
        #expect(sent.withLock { $0 } == 0)
    }
}
