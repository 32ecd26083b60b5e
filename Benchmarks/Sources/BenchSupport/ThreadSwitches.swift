import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Context switches of one thread, from `/proc/PID/task/TID/status`. A thread that sleeps
/// and is woken counts one voluntary switch when it goes back to sleep, so over a window the
/// voluntary count is its wake-ups; nonvoluntary ones are preemptions while it ran.
public struct ThreadSwitches: Sendable, Equatable {
    public var tid: Int32
    /// `Name:` of the status file (the thread's comm, at most 15 bytes).
    public var name: String
    public var voluntary: Int
    public var nonvoluntary: Int

    public var total: Int { voluntary + nonvoluntary }

    /// Every thread of `pid` as it is now (empty when the process is gone). Reading these files
    /// does not wake the threads: the kernel answers from the task structs.
    public static func sample(pid: pid_t) -> [Int32: ThreadSwitches] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [:] }
        var threads: [Int32: ThreadSwitches] = [:]
        for entry in tasks {
            guard let tid = Int32(entry), let thread = read(pid: pid, tid: tid) else { continue }
            threads[tid] = thread
        }
        return threads
    }

    /// One thread; nil when it has exited (or the file lacks the counters).
    public static func read(pid: pid_t, tid: Int32) -> ThreadSwitches? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8) else { return nil }
        var name = "?"
        var voluntary: Int?
        var nonvoluntary: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Name:") {
                name = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("voluntary_ctxt_switches:") {
                voluntary = Int(line.dropFirst(24).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("nonvoluntary_ctxt_switches:") {
                nonvoluntary = Int(line.dropFirst(27).trimmingCharacters(in: .whitespaces))
            }
        }
        guard let voluntary, let nonvoluntary else { return nil }
        return ThreadSwitches(tid: tid, name: name, voluntary: voluntary, nonvoluntary: nonvoluntary)
    }
}

/// Context switches of every thread of a process over a window, from /proc. The threads alive
/// at the start and the end are read exactly; /proc forgets a thread when it exits, so a
/// thread of its own samples the task list every `interval` to see threads that come and go
/// in between (counted up to their last sample: a thread that lives less than `interval`, or
/// the switches of its last moments, can be missed; `PerfSwitchCounter` catches those).
/// Reading /proc does not wake the measured process.
public final class ThreadSwitchWindow: Sendable {
    /// One thread over the window: its counts at the start (nil: born during the window, so
    /// every switch it made is inside it) and at its last sample.
    public struct Row: Sendable {
        public var tid: Int32
        public var name: String
        public var start: ThreadSwitches?
        public var last: ThreadSwitches
        /// Still alive at the end of the window.
        public var aliveAtEnd: Bool

        public var voluntary: Int { last.voluntary - (start?.voluntary ?? 0) }
        public var nonvoluntary: Int { last.nonvoluntary - (start?.nonvoluntary ?? 0) }
        public var total: Int { voluntary + nonvoluntary }
        public var bornInWindow: Bool { start == nil }
    }

    private struct State {
        var rows: [Int32: Row] = [:]
        var stopped = false
        var samples = 0
    }

    public let pid: pid_t
    public let interval: Double
    private let state = Mutex(State())

    /// Takes the starting counts now and starts sampling.
    public init(pid: pid_t, interval: Double = 0.2) {
        self.pid = pid
        self.interval = interval
        let start = ThreadSwitches.sample(pid: pid)
        state.withLock { state in
            for (tid, thread) in start {
                state.rows[tid] = Row(tid: tid, name: thread.name, start: thread, last: thread, aliveAtEnd: true)
            }
        }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                usleep(useconds_t(self.interval * 1e6))
                record(ThreadSwitches.sample(pid: pid), final: false)
            }
        }
        thread.name = "proc-sampler"
        thread.start()
    }

    /// A sample taken after the final one (the sampler was asleep when the window ended) is
    /// dropped: its counts would run past the window.
    private func record(_ now: [Int32: ThreadSwitches], final: Bool) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = final
            state.samples += 1
            for (tid, thread) in now {
                if var row = state.rows[tid] {
                    row.last = thread
                    row.name = thread.name
                    state.rows[tid] = row
                } else {
                    state.rows[tid] = Row(tid: tid, name: thread.name, start: nil, last: thread, aliveAtEnd: true)
                }
            }
            if final {
                for tid in state.rows.keys where now[tid] == nil { state.rows[tid]?.aliveAtEnd = false }
            }
        }
    }

    /// Takes the final counts now, stops sampling and returns every thread seen, most switches
    /// first (then by tid). Returns at once: the sampler ends by itself when it next wakes.
    public func finish() -> (rows: [Row], samples: Int) {
        record(ThreadSwitches.sample(pid: pid), final: true)
        return state.withLock { state in
            (state.rows.values.sorted { ($0.total, $1.tid) > ($1.total, $0.tid) }, state.samples)
        }
    }
}

/// `perf stat -e context-switches -p PID`, started with its counters disabled and switched on
/// and off through perf's control FIFOs, so that its window is the one measured and not perf's
/// start-up. Its counters are inherited by threads created after it attached and folded into
/// the total when such a thread exits, so it counts the threads that come and go, which /proc
/// cannot show once they are gone.
public final class PerfSwitchCounter {
    public let perf: String
    private let pid: pid_t
    private let output: String
    private let control: CInt
    private let acknowledge: CInt
    private var ended = false

    /// Starts perf attached to `pid`; throws when perf is missing or does not answer on its
    /// control FIFO (not attached: no permission, an unsupported event).
    public init(attachTo target: pid_t, workDir: String, perf: String? = nil) throws {
        guard let binary = perf ?? LoadProcess.which("perf", extra: ["/usr/sbin", "/usr/bin"]) else {
            throw LoadError("perf is not installed (Debian: apt-get install linux-perf)")
        }
        self.perf = binary
        output = workDir + "/perf-stat.txt"
        let controlPath = workDir + "/perf-control.fifo"
        let acknowledgePath = workDir + "/perf-ack.fifo"
        for path in [controlPath, acknowledgePath, output] { unlink(path) }
        guard mkfifo(controlPath, 0o600) == 0, mkfifo(acknowledgePath, 0o600) == 0 else {
            throw LoadError("mkfifo in \(workDir): \(String(cString: strerror(errno)))")
        }
        // Read-write opens of a FIFO do not wait for the other end (Linux), and keep it open if
        // perf closes and reopens its side.
        control = open(controlPath, O_RDWR | O_CLOEXEC)
        acknowledge = open(acknowledgePath, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard control >= 0, acknowledge >= 0 else { throw LoadError("cannot open perf's control FIFOs") }
        let log = open(workDir + "/perf.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(log)
            close(devNull)
        }
        do {
            pid = try LoadProcess.spawn(
                [binary, "stat", "-e", "context-switches", "-x", ",", "-o", output, "--delay", "-1",
                 "--control", "fifo:\(controlPath),\(acknowledgePath)", "-p", "\(target)"],
                stdin: devNull, stdout: log, stderr: log)
        } catch {
            close(control)
            close(acknowledge)
            throw error
        }
        // perf reads the control FIFO once it has attached; a first disable (a no-op) that is
        // acknowledged says so.
        guard command("disable", timeout: 20) else {
            stopPerf()
            throw LoadError("perf stat did not attach to \(target): \(logText(workDir + "/perf.log"))")
        }
    }

    deinit {
        stopPerf()
        close(control)
        close(acknowledge)
    }

    /// Counting from now.
    public func enable() -> Bool { command("enable", timeout: 10) }

    /// Counting stopped.
    public func disable() -> Bool { command("disable", timeout: 10) }

    /// Ends perf and returns the count (0 when perf says `<not counted>`: the counter was
    /// enabled but no thread ran while it was); nil with the reason when there is none.
    public func finish() -> (count: Int?, text: String) {
        stopPerf()
        let text = logText(output)
        for line in text.split(separator: "\n") where line.contains(",context-switches") {
            let value = line.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if let count = Int(value) { return (count, String(line)) }
            if value.contains("not counted") { return (0, String(line)) }
            return (nil, String(line))
        }
        return (nil, text.isEmpty ? "no output" : text)
    }

    private func command(_ word: String, timeout: Double) -> Bool {
        // Stale acknowledgements (none expected) would answer the wrong command.
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(acknowledge, &scratch, scratch.count) > 0 {}
        let line = Array((word + "\n").utf8)
        guard line.withUnsafeBytes({ write(control, $0.baseAddress, $0.count) }) == line.count else { return false }
        let deadline = monotonicSeconds() + timeout
        var received: [UInt8] = []
        while monotonicSeconds() < deadline {
            if LoadProcess.reapIfExited(pid) != nil {
                ended = true
                return false
            }
            var entry = pollfd(fd: acknowledge, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = read(acknowledge, &scratch, scratch.count)
            if count > 0 { received += scratch[0..<count] }
            if String(decoding: received, as: UTF8.self).contains("ack") { return true }
        }
        return false
    }

    private func stopPerf() {
        guard !ended else { return }
        ended = true
        // SIGINT is how perf stat is told to print its counts and exit.
        kill(pid, SIGINT)
        if LoadProcess.wait(pid, timeout: 10) == nil {
            kill(pid, SIGKILL)
            _ = LoadProcess.wait(pid, timeout: nil)
        }
    }

    private func logText(_ path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
