import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Child processes for the load tools: `posix_spawn` with chosen descriptors, waiting with a
/// time-out, running a command to completion and capturing its output, CPU time from /proc.
public enum LoadProcess {
    /// Spawns `argv` (a bare name is looked up on PATH) with the given descriptors as 0, 1, 2
    /// (nil: inherit) and `environment` (nil: this process's). The child inherits every other
    /// descriptor that is not close-on-exec, so open yours with `O_CLOEXEC`.
    public static func spawn(
        _ argv: [String], environment: [String: String]? = nil, stdin: CInt? = nil, stdout: CInt? = nil,
        stderr: CInt? = nil, newProcessGroup: Bool = false
    ) throws -> pid_t {
        precondition(!argv.isEmpty)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var environmentStrings: [UnsafeMutablePointer<CChar>?] = []
        if let environment {
            environmentStrings = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { environmentStrings.forEach { free($0) } }
        var pid: pid_t = 0
        let spawn = argv[0].contains("/") ? posix_spawn : posix_spawnp
        let result: CInt
        if environment == nil {
            result = spawn(&pid, argv[0], &actions, &attributes, &arguments, environ)
        } else {
            result = spawn(&pid, argv[0], &actions, &attributes, &arguments, &environmentStrings)
        }
        guard result == 0 else { throw LoadError("cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    /// How a child ended.
    public enum Termination: Equatable, CustomStringConvertible, Sendable {
        case exited(Int32)
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Reaps `pid`, waiting at most `timeout` seconds (nil: forever); nil when it is still running.
    public static func wait(_ pid: pid_t, timeout: Double?) -> Termination? {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        var status: CInt = 0
        while true {
            let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if result == pid { break }
            if result < 0 {
                if errno == EINTR { continue }
                return .exited(-1)
            }
            if let deadline, monotonicSeconds() >= deadline { return nil }
            usleep(5000)
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// Whether `pid` (a child of ours) has ended; reaps it if so.
    public static func reapIfExited(_ pid: pid_t) -> Termination? {
        wait(pid, timeout: 0)
    }

    /// Runs a command to completion, capturing stdout and stderr. Fails if it cannot start or
    /// runs past `timeout`.
    public static func run(_ argv: [String], timeout: Double = 600, environment: [String: String]? = nil) throws
        -> (termination: Termination, stdout: String, stderr: String)
    {
        var outPipe: [CInt] = [-1, -1]
        var errPipe: [CInt] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw LoadError("pipe: \(String(cString: strerror(errno)))") }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(devNull) }
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(argv, environment: environment, stdin: devNull, stdout: outPipe[1], stderr: errPipe[1])
        } catch {
            for fd in outPipe + errPipe { close(fd) }
            throw error
        }
        close(outPipe[1])
        close(errPipe[1])
        var out = [UInt8]()
        var err = [UInt8]()
        var open = [outPipe[0], errPipe[0]]
        let deadline = monotonicSeconds() + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 {
                kill(pid, SIGKILL)
                _ = wait(pid, timeout: nil)
                for fd in open { close(fd) }
                throw LoadError("\(argv.joined(separator: " ")) ran longer than \(Int(timeout)) s")
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), CInt(min(remaining * 1000, 1000)))
            if ready <= 0 { continue }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == outPipe[0] { out += buffer[0..<count] } else { err += buffer[0..<count] }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        let termination = wait(pid, timeout: nil) ?? .exited(-1)
        return (termination, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Looks a program up on PATH (plus `extra` folders); nil when absent.
    public static func which(_ name: String, extra: [String] = []) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) + extra {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// User + system CPU seconds a process has used so far (from /proc/PID/stat), nil when it
    /// cannot be read.
    public static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after "comm)": state is field 3, utime 14, stime 15 (1-based).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size of a process in bytes (VmRSS), nil when it cannot be read.
    public static func residentBytes(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return digits.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// This process's user + system CPU seconds.
    public static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// Monotonic time in seconds.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Monotonic time in nanoseconds.
@inline(__always)
public func monotonicNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

public struct LoadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
