import Foundation
import Synchronization

/// The threads providers run on: at most `limit` launches at once, the ones beyond it waiting
/// in the order they came.
///
/// A thread is started the first time the launches in hand need one more, and then kept: it
/// waits for the next launch on a condition variable with no timeout, so a kept thread never
/// wakes the daemon. A thread per launch cost every reload a `clone` on the event loop and an
/// unmapping of the thread's stack at its end. Not a dispatch queue: libdispatch's pool
/// starts a timer that wakes the process every second for good (see `WorkerThread`).
final class LaunchThreads: Sendable {
    typealias Job = @Sendable () -> Void

    private struct Queue {
        var jobs: [Job] = []
        /// Where the next job to run is in `jobs` (taken jobs are dropped in bulk).
        var head = 0
        var limit: Int
        /// Jobs running now.
        var running = 0
        /// Threads started (running a job or waiting for one).
        var threads = 0

        var waiting: Int { jobs.count - head }

        /// Whether one more thread is needed to run what may run now; counts it as started.
        mutating func startsThread() -> Bool {
            guard threads < min(limit, running + waiting) else { return false }
            threads += 1
            return true
        }

        mutating func take() -> Job? {
            guard running < limit, head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            running += 1
            return job
        }
    }

    private let name: String
    private let condition = NSCondition()
    // Guarded by `condition`; the mutex only makes the type `Sendable` without a claim.
    private let queue: Mutex<Queue>

    init(limit: Int, name: String) {
        self.name = String(name.prefix(15))
        queue = Mutex(Queue(limit: max(1, limit)))
    }

    /// Runs `job` on one of the threads, once fewer than `limit` jobs run.
    func run(_ job: @escaping Job) {
        condition.lock()
        let start = queue.withLock { queue in
            queue.jobs.append(job)
            return queue.startsThread()
        }
        if start { startThread() }
        condition.signal()
        condition.unlock()
    }

    /// A new cap (SIGHUP); waiting jobs start at once if it grew.
    func setLimit(_ limit: Int) {
        condition.lock()
        let starts = queue.withLock { queue in
            queue.limit = max(1, limit)
            var starts = 0
            while queue.startsThread() { starts += 1 }
            return starts
        }
        for _ in 0..<starts { startThread() }
        condition.broadcast()
        condition.unlock()
    }

    private func startThread() {
        let thread = Thread { [self] in
            // Named from inside: how a thread shows in /proc (15 bytes at most).
            Thread.current.name = name
            work()
        }
        thread.start()
    }

    /// A thread's life: run what may run, else wait for more. The threads last as long as the
    /// daemon (its one runner holds them).
    private func work() {
        condition.lock()
        while true {
            if let job = queue.withLock({ $0.take() }) {
                condition.unlock()
                job()
                condition.lock()
                queue.withLock { $0.running -= 1 }
            } else {
                condition.wait()
            }
        }
    }
}
