import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private `redis-server` on a unix socket in the work dir (no TCP port), the reference
/// for the request workloads. It runs with its defaults otherwise (one I/O thread, hz 10).
final class RedisServer {
    let pid: pid_t
    let socketPath: String
    let dir: String
    let version: String

    enum Persistence {
        /// `--save '' --appendonly no`: memory only.
        case none
        /// `--appendonly yes --appendfsync always --save ''`, no automatic rewrite: every
        /// write fsync'd before the reply (Redis group-commits: one fsync per event-loop
        /// iteration covers every write of that iteration).
        case appendFsyncAlways
    }

    init(dir: String, persistence: Persistence, binary: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.dir = dir
        socketPath = dir + "/redis.sock"
        unlink(socketPath)
        var arguments = [binary, "--port", "0", "--unixsocket", socketPath, "--unixsocketperm", "700",
                         "--dir", dir, "--daemonize", "no", "--logfile", dir + "/redis.log", "--save", ""]
        switch persistence {
        case .none: arguments += ["--appendonly", "no"]
        case .appendFsyncAlways:
            // No automatic rewrite of the append-only file: it runs in a forked child, whose
            // CPU time the measurement (of the server process) would not see.
            arguments += ["--appendonly", "yes", "--appendfsync", "always", "--auto-aof-rewrite-percentage", "0"]
        }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        pid = try LoadProcess.spawn(arguments, stdin: devNull, stdout: devNull, stderr: devNull)
        version = (try? LoadProcess.run([binary, "--version"], timeout: 30).stdout)
            .flatMap { $0.split(separator: " ").first(where: { $0.hasPrefix("v=") }).map { String($0.dropFirst(2)) } } ?? "?"
        let deadline = monotonicSeconds() + 30
        while true {
            if let end = LoadProcess.reapIfExited(pid) {
                let log = (try? String(contentsOfFile: dir + "/redis.log", encoding: .utf8)) ?? ""
                throw LoadError("redis-server ended at start (\(end)):\n\(log.split(separator: "\n").suffix(10).joined(separator: "\n"))")
            }
            if ping() { break }
            if monotonicSeconds() > deadline {
                stop()
                throw LoadError("redis-server did not answer PING within 30 s")
            }
            usleep(20_000)
        }
    }

    /// PING over the socket.
    func ping() -> Bool {
        guard let fd = try? LoadClient.connect(path: socketPath) else { return false }
        defer { close(fd) }
        let request = Array("PING\r\n".utf8)
        guard Glibc.send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 1000) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 && String(decoding: buffer[0..<count], as: UTF8.self).hasPrefix("+PONG")
    }

    var cpuSeconds: Double? { LoadProcess.cpuSeconds(pid) }

    /// Bytes in the append-only files (to check that writes really went to disk).
    var appendOnlyBytes: Int {
        let fm = FileManager.default
        var total = 0
        for folder in [dir, dir + "/appendonlydir"] {
            for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where name.contains("appendonly") && name.contains(".aof") {
                total += ((try? fm.attributesOfItem(atPath: folder + "/" + name)[.size]) as? NSNumber)?.intValue ?? 0
            }
        }
        return total
    }

    func stop() {
        kill(pid, SIGTERM)
        if LoadProcess.wait(pid, timeout: 30) == nil {
            kill(pid, SIGKILL)
            _ = LoadProcess.wait(pid, timeout: nil)
        }
    }
}
