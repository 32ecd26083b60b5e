import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The real `widgetd` binary, started the way systemd would: a private control socket, state
/// dir, widgets dirs and config file, logs to a file, and a `NOTIFY_SOCKET` datagram socket
/// of our own so that start-up waits for `READY=1` instead of polling the control socket.
public final class LoadDaemon: @unchecked Sendable {
    public let pid: pid_t
    public let socketPath: String
    public let stateDir: String
    public let logPath: String
    private let notify: NotifyListener
    private var ended: LoadProcess.Termination?

    public struct Options: Sendable {
        public var binary: String
        /// Sockets, state, log and notify socket go here.
        public var workDir: String
        public var widgetsDirs: [String]
        public var config: String?
        public var extraArguments: [String] = []
        public var logLevel = "info"
        public var readyTimeout: Double = 120
        /// Prepended to PATH for the daemon (and so for its providers).
        public var pathPrefix: [String] = []
        public var environment: [String: String] = [:]

        public init(binary: String, workDir: String, widgetsDirs: [String], config: String? = nil) {
            self.binary = binary
            // Absolute, because NOTIFY_SOCKET must be: with a relative one the daemon's READY=1
            // never arrived and the start waited out its 120 s.
            self.workDir = workDir.hasPrefix("/") ? workDir : FileManager.default.currentDirectoryPath + "/" + workDir
            self.widgetsDirs = widgetsDirs
            self.config = config
        }
    }

    private init(pid: pid_t, socketPath: String, stateDir: String, logPath: String, notify: NotifyListener) {
        self.pid = pid
        self.socketPath = socketPath
        self.stateDir = stateDir
        self.logPath = logPath
        self.notify = notify
    }

    /// Starts the daemon and returns once it has sent READY=1; throws (with the log's tail) if
    /// it exits first or does not get ready in time.
    public static func start(_ options: Options) throws -> LoadDaemon {
        let fm = FileManager.default
        try fm.createDirectory(atPath: options.workDir, withIntermediateDirectories: true)
        let socketPath = options.workDir + "/widgetd.sock"
        let stateDir = options.workDir + "/state"
        let logPath = options.workDir + "/widgetd.log"
        let notifyPath = options.workDir + "/notify.sock"
        let notify = try NotifyListener(path: notifyPath)

        var arguments = [options.binary, "--socket", socketPath, "--state-dir", stateDir, "--log-target", "stderr",
                         "--log-level", options.logLevel]
        for dir in options.widgetsDirs { arguments += ["--widgets-dir", dir] }
        if let config = options.config { arguments += ["--config", config] }
        arguments += options.extraArguments

        var environment = ProcessInfo.processInfo.environment
        for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID", "INVOCATION_ID",
                    "JOURNAL_STREAM"] {
            environment[key] = nil
        }
        environment["NOTIFY_SOCKET"] = notifyPath
        if !options.pathPrefix.isEmpty {
            environment["PATH"] = (options.pathPrefix + [environment["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":")
        }
        for (key, value) in options.environment { environment[key] = value }

        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw LoadError("cannot open \(logPath): \(String(cString: strerror(errno)))") }
        defer { close(log) }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(devNull) }
        let pid = try LoadProcess.spawn(arguments, environment: environment, stdin: devNull, stdout: log, stderr: log)
        let daemon = LoadDaemon(pid: pid, socketPath: socketPath, stateDir: stateDir, logPath: logPath, notify: notify)

        let deadline = monotonicSeconds() + options.readyTimeout
        while !notify.hasSeen("READY=1") {
            if let end = LoadProcess.reapIfExited(pid) {
                daemon.ended = end
                notify.close()
                throw LoadError("widgetd ended before READY=1 (\(end)); log \(logPath):\n\(daemon.logTail())")
            }
            if monotonicSeconds() > deadline {
                kill(pid, SIGKILL)
                _ = LoadProcess.wait(pid, timeout: nil)
                notify.close()
                throw LoadError("widgetd sent no READY=1 within \(Int(options.readyTimeout)) s; log \(logPath):\n\(daemon.logTail())")
            }
            notify.waitForMessage(timeout: 0.05)
        }
        return daemon
    }

    /// SIGTERM, then waits (SIGKILL after `timeout`). Returns how it ended.
    @discardableResult
    public func stop(timeout: Double = 30) -> LoadProcess.Termination {
        defer { notify.close() }
        if let ended { return ended }
        kill(pid, SIGTERM)
        if let end = LoadProcess.wait(pid, timeout: timeout) {
            ended = end
            return end
        }
        kill(pid, SIGKILL)
        let end = LoadProcess.wait(pid, timeout: nil) ?? .signaled(SIGKILL)
        ended = end
        return end
    }

    /// Whether the daemon is still running (reaps it if not).
    public var isRunning: Bool {
        if ended != nil { return false }
        if let end = LoadProcess.reapIfExited(pid) {
            ended = end
            return false
        }
        return true
    }

    public var cpuSeconds: Double? { LoadProcess.cpuSeconds(pid) }
    public var residentBytes: Int? { LoadProcess.residentBytes(pid) }

    /// The last lines of the daemon's log.
    public func logTail(lines: Int = 30) -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "(no log)" }
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// Lines of the daemon's log at warning level or above (how many, and the first few).
    public func logProblems(limit: Int = 5) -> (count: Int, first: [String]) {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return (0, []) }
        let bad = text.split(separator: "\n").filter {
            $0.contains("warning") || $0.contains("error") || $0.contains("critical")
        }
        return (bad.count, bad.prefix(limit).map(String.init))
    }
}

/// A bound `SOCK_DGRAM` unix socket that a thread drains (as systemd would, so the daemon's
/// `sd_notify` never finds it full), remembering every `KEY=value` line received.
final class NotifyListener: @unchecked Sendable {
    private let fd: CInt
    private let path: String
    private let state = Mutex<(seen: Set<String>, closed: Bool)>(([], false))
    private let signal = NSCondition()
    private var thread: Thread?

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoadError("notify socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw LoadError("notify socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw LoadError("cannot bind notify socket \(path): \(reason)")
        }
        let thread = Thread { [self] in self.drain() }
        thread.name = "notify"
        self.thread = thread
        thread.start()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !state.withLock({ $0.closed }) {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { continue }
            let lines = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").map(String.init)
            state.withLock { $0.seen.formUnion(lines) }
            signal.lock()
            signal.broadcast()
            signal.unlock()
        }
        Glibc.close(fd)
        unlink(path)
    }

    func hasSeen(_ line: String) -> Bool {
        state.withLock { $0.seen.contains(line) }
    }

    func waitForMessage(timeout: Double) {
        signal.lock()
        _ = signal.wait(until: Date().addingTimeInterval(timeout))
        signal.unlock()
    }

    func close() {
        state.withLock { $0.closed = true }
    }
}
