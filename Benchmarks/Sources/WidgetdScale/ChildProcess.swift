import BenchSupport
import Foundation
import Glibc

/// A child process started with posix_spawn: stdin from /dev/null, stdout and stderr appended
/// to a log file (or /dev/null), the environment of this process plus `environment`.
final class ChildProcess {
    let pid: pid_t
    let executable: String
    let logPath: String
    private(set) var exitStatus: Int32?

    init(executable: String, arguments: [String], environment: [String: String] = [:], logPath: String = "/dev/null")
        throws
    {
        self.executable = executable
        self.logPath = logPath
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&fileActions, 1, 2)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &fileActions, nil, argv, envp)
        guard result == 0 else {
            throw ScaleError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the process has exited (reaps it when it has).
    func hasExited() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exitStatus = status
            return true
        }
        return false
    }

    /// Blocks until the process exits; returns the raw wait status.
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { break }
        }
        exitStatus = status
        return status
    }

    func signal(_ number: Int32) {
        guard exitStatus == nil else { return }
        kill(pid, number)
    }

    /// SIGTERM, then SIGKILL after `grace` seconds.
    func stop(grace: Double = 20) {
        guard !hasExited() else { return }
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while !hasExited() {
            if Date() > deadline {
                signal(SIGKILL)
                wait()
                return
            }
            usleep(20_000)
        }
    }

    /// Runs a program to completion; returns its wait status and the seconds it took.
    static func run(_ executable: String, _ arguments: [String], logPath: String = "/dev/null") throws -> (
        status: Int32, seconds: Double
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let child = try ChildProcess(executable: executable, arguments: arguments, logPath: logPath)
        let status = child.wait()
        return (status, (clock.now - start).coreSeconds)
    }

    /// Runs a program to completion and returns its stdout.
    static func output(_ executable: String, _ arguments: [String], scratch: String) throws -> String {
        try? FileManager.default.removeItem(atPath: scratch)
        let (status, _) = try run(executable, arguments, logPath: scratch)
        let text = (try? String(contentsOfFile: scratch, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: scratch)
        guard status == 0 else { throw ScaleError("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)") }
        return text
    }
}

/// A bound `NOTIFY_SOCKET` (unix datagram socket), as systemd gives a `Type=notify` service.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = try DatagramSocket.bound(to: path)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Throws away every datagram already queued (e.g. STATUS= lines of a previous daemon).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    /// Waits for a datagram holding the line `assignment` (e.g. "READY=1"); returns the instant
    /// it arrived. Fails early when `process` exits, and after `timeout` seconds.
    func wait(for assignment: String, process: ChildProcess?, timeout: Double) throws -> ContinuousClock.Instant {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while clock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready > 0 {
                let count = recv(fd, &buffer, buffer.count, 0)
                let arrived = clock.now
                if count > 0 {
                    let text = String(decoding: buffer[0..<count], as: UTF8.self)
                    if text.split(separator: "\n").contains(where: { $0 == assignment }) { return arrived }
                }
                continue
            }
            if let process, process.hasExited() {
                throw ScaleError(
                    "\(process.executable) exited (status \(process.exitStatus ?? -1)) before \(assignment); log: \(process.logPath)\n"
                        + tail(of: process.logPath))
            }
        }
        throw ScaleError("no \(assignment) within \(Int(timeout)) s")
    }
}

/// The last lines of a file, for error messages.
func tail(of path: String, lines: Int = 15) -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
    return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
}

/// Memory of a process from /proc/PID/status, in bytes.
struct ProcessMemory {
    var rss: Int
    var peak: Int

    init(pid: pid_t) throws {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw ScaleError("cannot read /proc/\(pid)/status")
        }
        func field(_ name: String) -> Int {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let digits = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) } ?? 0
                return digits * 1024
            }
            return 0
        }
        rss = field("VmRSS")
        peak = field("VmHWM")
    }
}

struct ScaleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
