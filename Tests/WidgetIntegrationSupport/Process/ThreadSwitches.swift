import Foundation

/// The context switches of every thread of a process, from /proc: a thread that sleeps
/// without being woken adds none, so their sum over a window counts the process's wake-ups.
struct ThreadSwitches: Equatable {
    /// Per thread id: its name and voluntary plus involuntary switches so far.
    var threads: [Int32: (name: String, switches: Int)]

    static func == (lhs: ThreadSwitches, rhs: ThreadSwitches) -> Bool {
        lhs.threads.mapValues(\.switches) == rhs.threads.mapValues(\.switches)
    }

    init(_ pid: pid_t) {
        var threads: [Int32: (String, Int)] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let tid = Int32(name),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(name)/status", encoding: .utf8)
            else { continue }
            var switches = 0
            var threadName = "?"
            for line in status.split(separator: "\n") {
                if line.hasPrefix("Name:") { threadName = line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                    switches += Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
                }
            }
            threads[tid] = (threadName, switches)
        }
        self.threads = threads
    }

    /// The wake-ups between `self` and a later snapshot, per thread: switches of threads in
    /// both, every switch of a thread that came, and one for each thread that went (it woke to
    /// exit). Threads that came and went in between are not seen: the caller waits until the
    /// set of threads has been stable for a while before it measures.
    func wakeUps(until later: ThreadSwitches) -> [String] {
        var woken: [String] = []
        for (tid, thread) in later.threads {
            let before = threads[tid]?.switches ?? 0
            if thread.switches > before { woken.append("\(thread.name) (\(tid)): \(thread.switches - before)") }
        }
        for (tid, thread) in threads where later.threads[tid] == nil { woken.append("\(thread.name) (\(tid)): exited") }
        return woken.sorted()
    }

    /// Threads that are not the program's own: its own are named for the program
    /// (`widgetd`, `widgetd-web`, `widgetd-*` threads) or are NIO's (event loops `NIO-*`, its
    /// blocking pool `TP-#*`). libdispatch's
    /// pool names its threads for its queues (`-qos.overcommit` here, the end of
    /// `com.apple.root.default-qos.overcommit`), and once started it wakes the process every
    /// second. Read from a settled snapshot: a new thread carries its creator's name until it
    /// names itself.
    var foreignThreads: [String] {
        threads.values.map(\.name).filter { !$0.hasPrefix("widgetd") && !$0.hasPrefix("NIO-") && !$0.hasPrefix("TP-#") }.sorted()
    }

    /// The process's threads once every one of them has held still for 6 s: libdispatch's
    /// threads (the signal sources' and whatever a library starts on a queue) end a few
    /// seconds after their work. Fails when they keep waking for a minute. Timed on the
    /// monotonic clock: other tests step the wall clock.
    static func settled(_ pid: pid_t) throws -> ThreadSwitches {
        let clock = ContinuousClock()
        var previous = ThreadSwitches(pid)
        var stillSince = clock.now
        let deadline = clock.now + .seconds(60)
        while clock.now - stillSince < .seconds(6) {
            guard clock.now < deadline else {
                throw FixtureError("the daemon's threads kept waking for 60 s: \(previous.threads)")
            }
            usleep(200_000)
            let now = ThreadSwitches(pid)
            if now != previous {
                previous = now
                stillSince = clock.now
            }
        }
        return previous
    }
}
