import ArgumentParser
import BenchSupport
import Foundation
import WidgetdClient
#if canImport(Glibc)
import Glibc
#endif

/// `widgetd-load startup`: exec to `READY=1` of widgetd on an empty state, against
/// `redis-server` exec to its first `PONG`, alternating in one run.
///
/// Each widgetd round starts the daemon on a new, empty state dir and widgets dir (as a first
/// start after installation: the store is created and migrated) and times from just before
/// `posix_spawn` until `READY=1` arrives on a notify socket of our own, read by this thread
/// (no polling). Each Redis round starts `redis-server` memory-only on a unix socket of a
/// new dir and times until a `PING` on a fresh connection is answered `+PONG`; the
/// connection is retried every 100 µs until the socket takes it.
struct StartupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Exec to READY=1 on an empty state, against redis-server exec to its first PONG.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Pairs of starts to time (widgetd, then Redis).")
    var pairs = 15

    @Option(help: "Pairs before timing (not counted), so that both binaries are in the page cache.")
    var warmup = 2

    @Option(name: .customLong("redis-server"), help: "redis-server binary (default: on PATH).")
    var redisServer: String?

    func validate() throws {
        guard pairs > 0, warmup >= 0 else { throw ValidationError("counts must be positive") }
    }

    func run() throws {
        let binary = try common.widgetdBinary()
        guard let redis = redisServer ?? LoadProcess.which("redis-server", extra: ["/usr/sbin", "/usr/bin"]) else {
            throw ValidationError("redis-server is needed for the reference (apt-get install redis-server)")
        }
        let work = try common.makeWorkDir("startup")
        var succeeded = false
        defer { common.cleanUp(work, succeeded: succeeded) }
        let fsType = fileSystemType(of: work.path)
        let loadBefore = loadAverage()
        progress("widgetd-load startup: work dir \(work.path) [\(fsType)], daemon \(binary), reference \(redis)")

        var measured: [Figure.Pair] = []
        var widgetdCPU: [Double] = []
        var redisCPU: [Double] = []
        for round in 0..<(warmup + pairs) {
            let daemon = try Self.startWidgetd(binary, in: work.path + "/w\(round)", logLevel: common.logLevel)
            let reference = try Self.startRedis(redis, in: work.path + "/r\(round)")
            if round >= warmup {
                measured.append(Figure.Pair(widgetd: daemon.seconds * 1e3, reference: reference.seconds * 1e3))
                widgetdCPU.append(daemon.cpu * 1e3)
                redisCPU.append(reference.cpu * 1e3)
            }
        }
        let perPair = measured.map { String(format: "%.1f / %.1f", $0.widgetd, $0.reference) }.joined(separator: ", ")
        var notes = "\(pairs) pairs after \(warmup) warm-up, each widgetd then Redis. widgetd: exec (posix_spawn) until READY=1 on its NOTIFY_SOCKET, "
        notes += "a new empty state dir and widgets dir each start (the store created and migrated), --log-level \(common.logLevel), logs to a file; "
        notes += "Redis: exec until a PING on a new unix-socket connection is answered +PONG (memory only: --save '' --appendonly no; connect retried every 100 µs). "
        notes += "Per pair widgetd / Redis ms: \(perPair). "
        notes += String(
            format: "Process CPU until ready (utime + stime, 10 ms ticks), medians: %.0f / %.0f ms. ", median(widgetdCPU), median(redisCPU))
        notes += "State on \(fsType); 1-min load average before the run \(loadBefore), after \(loadAverage())."
        let figure = Figure(
            id: "startup.ready", figure: "start-up: exec to READY=1 on an empty state, against redis-server exec to its first PONG",
            pairs: measured, unit: "ms", target: "≤ 2.0×", notes: notes)
        try figure.measuring(binary).record(to: common.figures)
        succeeded = true
    }

    /// Starts widgetd in `dir` and stops it once it is ready; returns the time to `READY=1`
    /// and the process's CPU by then.
    static func startWidgetd(_ binary: String, in dir: String, logLevel: String) throws -> (seconds: Double, cpu: Double) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/widgets", withIntermediateDirectories: true)
        let notifyPath = dir + "/notify.sock"
        let notify = try DatagramSocket.bound(to: notifyPath)
        defer { close(notify) }
        var environment = ProcessInfo.processInfo.environment
        for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "INVOCATION_ID", "JOURNAL_STREAM"] {
            environment[key] = nil
        }
        environment["NOTIFY_SOCKET"] = notifyPath
        let arguments = [
            binary, "--socket", dir + "/widgetd.sock", "--state-dir", dir + "/state", "--widgets-dir", dir + "/widgets",
            "--log-target", "stderr", "--log-level", logLevel,
        ]
        let log = open(dir + "/widgetd.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(log)
            close(devNull)
        }
        let start = monotonicNanoseconds()
        let pid = try LoadProcess.spawn(arguments, environment: environment, stdin: devNull, stdout: log, stderr: log)
        defer {
            kill(pid, SIGKILL)
            _ = LoadProcess.wait(pid, timeout: nil)
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = monotonicSeconds() + 60
        while true {
            var entry = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 50)
            if ready > 0 {
                let count = recv(notify, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0, String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") {
                    let end = monotonicNanoseconds()
                    return (Double(end - start) / 1e9, LoadProcess.cpuSeconds(pid) ?? .nan)
                }
                continue
            }
            if let end = LoadProcess.reapIfExited(pid) {
                throw LoadError("widgetd ended before READY=1 (\(end)); log \(dir)/widgetd.log")
            }
            if monotonicSeconds() > deadline { throw LoadError("widgetd sent no READY=1 within 60 s; log \(dir)/widgetd.log") }
        }
    }

    /// Starts redis-server in `dir` and stops it once it answers; returns the time to the
    /// first `+PONG` and the process's CPU by then.
    static func startRedis(_ binary: String, in dir: String) throws -> (seconds: Double, cpu: Double) {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let socketPath = dir + "/redis.sock"
        let arguments = [
            binary, "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700", "--dir", dir, "--daemonize", "no",
            "--logfile", dir + "/redis.log", "--save", "", "--appendonly", "no",
        ]
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        let request = Array("PING\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 64)
        let start = monotonicNanoseconds()
        let pid = try LoadProcess.spawn(arguments, stdin: devNull, stdout: devNull, stderr: devNull)
        defer {
            kill(pid, SIGKILL)
            _ = LoadProcess.wait(pid, timeout: nil)
        }
        let deadline = monotonicSeconds() + 60
        while true {
            if case .success(let fd) = UnixSocket.connect(path: socketPath) {
                defer { close(fd) }
                if Glibc.send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count {
                    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&entry, 1, 10_000) > 0 {
                        let count = recv(fd, &buffer, buffer.count, 0)
                        if count > 0, String(decoding: buffer[0..<count], as: UTF8.self).hasPrefix("+PONG") {
                            let end = monotonicNanoseconds()
                            return (Double(end - start) / 1e9, LoadProcess.cpuSeconds(pid) ?? .nan)
                        }
                    }
                }
            }
            if let end = LoadProcess.reapIfExited(pid) { throw LoadError("redis-server ended at start (\(end)); log \(dir)/redis.log") }
            if monotonicSeconds() > deadline { throw LoadError("redis-server did not answer PING within 60 s") }
            usleep(100)
        }
    }
}
