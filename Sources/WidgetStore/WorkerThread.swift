import Foundation
import Synchronization

/// One thread of its own that runs blocking work in the order it was handed in, and sleeps
/// without a timeout when there is none.
///
/// Why not a dispatch queue: the first dispatch worker thread starts libdispatch's pool
/// monitor, a one-second timer that never stops, and idle workers exit a few seconds after
/// their work, so a queue costs wake-ups long after the work is done. A daemon that must not
/// wake without work runs its blocking writes (SQLite commits, `sd_notify`) here instead.
public final class WorkerThread: Sendable {
    public typealias Work = @Sendable () -> Void

    /// What the thread itself holds, so that the thread ends (after its work) once nobody
    /// holds the `WorkerThread`.
    private let core: Core

    public init(name: String) {
        core = Core()
        let core = self.core
        let thread = Thread {
            // Named from inside: how a thread shows in /proc (15 bytes at most), so a wake-up
            // can be traced to its owner.
            Thread.current.name = String(name.prefix(15))
            core.run()
        }
        thread.start()
    }

    deinit {
        core.stop()
    }

    /// Runs `work` on the thread, after everything handed in before it.
    public func async(_ work: @escaping Work) {
        core.add(work, after: nil)
    }

    /// Runs `work` on the thread once `delay` has passed.
    public func async(after delay: Duration, _ work: @escaping Work) {
        core.add(work, after: delay > .zero ? delay : nil)
    }

    /// Waits until everything handed in so far has run, or `timeout` has passed; false on timeout.
    @discardableResult
    public func waitUntilIdle(timeout: Duration? = nil) -> Bool {
        let done = Done()
        async { done.signal() }
        return done.wait(timeout: timeout)
    }
}

private final class Core: Sendable {
    typealias Work = WorkerThread.Work

    private struct Delayed {
        var deadline: ContinuousClock.Instant
        var work: Work
    }

    private struct Jobs {
        var ready: [Work] = []
        /// Work for later, kept sorted by deadline (few: at most one status flush at a time).
        var delayed: [Delayed] = []
        var stopped = false
    }

    private let condition = NSCondition()
    // Guarded by `condition`; the mutex only makes the type `Sendable` without a claim.
    private let jobs = Mutex(Jobs())

    func add(_ work: @escaping Work, after delay: Duration?) {
        condition.lock()
        jobs.withLock { jobs in
            guard let delay else { return jobs.ready.append(work) }
            let item = Delayed(deadline: .now + delay, work: work)
            let index = jobs.delayed.firstIndex { $0.deadline > item.deadline } ?? jobs.delayed.endIndex
            jobs.delayed.insert(item, at: index)
        }
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the work ready now has run; work for later is dropped.
    func stop() {
        condition.lock()
        jobs.withLock { $0.stopped = true }
        condition.signal()
        condition.unlock()
    }

    func run() {
        while true {
            condition.lock()
            var next: Work?
            while next == nil {
                let now = ContinuousClock.now
                let (work, wait, stopped) = jobs.withLock { jobs -> (Work?, ContinuousClock.Instant?, Bool) in
                    if let first = jobs.delayed.first, first.deadline <= now, !jobs.stopped {
                        jobs.delayed.removeFirst()
                        return (first.work, nil, false)
                    }
                    if !jobs.ready.isEmpty { return (jobs.ready.removeFirst(), nil, false) }
                    return (nil, jobs.stopped ? nil : jobs.delayed.first?.deadline, jobs.stopped)
                }
                if stopped {
                    condition.unlock()
                    return
                }
                if let work {
                    next = work
                } else if let wait {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(now.duration(to: wait))))
                } else {
                    condition.wait()
                }
            }
            condition.unlock()
            next?()
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// A one-shot signal to wait for with a deadline.
private final class Done: Sendable {
    private let condition = NSCondition()
    private let flag = Mutex(false)

    func signal() {
        condition.lock()
        flag.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: Duration?) -> Bool {
        let deadline = timeout.map { Date(timeIntervalSinceNow: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
        condition.lock()
        defer { condition.unlock() }
        while !flag.withLock({ $0 }) {
            if let deadline {
                if !condition.wait(until: deadline) { return flag.withLock { $0 } }
            } else {
                condition.wait()
            }
        }
        return true
    }
}
