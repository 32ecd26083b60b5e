import Foundation
import Glibc
@testable import WidgetIntegrationSupport

/// The clients of the socket campaign (`Integration.HostileSocket`): one that pings and times
/// its answers, one that sends batches and never reads, one that loops batches and reads
/// them, and one that dribbles a partial line.
enum SocketClients {
    /// `count` `status` requests as one batch line, newline included.
    static func statusBatch(_ count: Int) -> [UInt8] {
        var text = "["
        text.reserveCapacity(count * 46)
        for id in 0..<count {
            if id > 0 { text += "," }
            text += #"{"jsonrpc":"2.0","method":"status","id":\#(id)}"#
        }
        return Array((text + "]\n").utf8)
    }

    /// A connected unix socket, blocking, with `options` applied before `connect`.
    static func connect(_ path: String, receiveBuffer: Int32? = nil) throws -> CInt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let result = UnixAddress.connect(fd, path)
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FixtureError("cannot connect to \(path): \(reason)")
        }
        return fd
    }

    static func setTimeout(_ fd: CInt, _ option: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends what it can of `bytes`; returns how many went (fewer when the send timed out).
    static func send(_ fd: CInt, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            offset += count
        }
        return offset
    }
}

/// Pings on a connection of its own, on a thread of its own, until stopped, and keeps how
/// long each answer took (figures to print, never asserted). An answer that does not come
/// within the connection's receive time-out is a failure.
final class SocketPinger: @unchecked Sendable {
    private let lock = NSLock()
    private var latencies: [Double] = []
    private var failures: [String] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private let connection: RawConnection

    init(path: String) throws {
        connection = try RawConnection(path: path)
        let thread = Thread { [self] in run() }
        thread.start()
    }

    private func run() {
        let clock = ContinuousClock()
        var id = 0
        while !(lock.withLock { stopped }) {
            id += 1
            let start = clock.now
            let answer = connection.request(#"{"jsonrpc":"2.0","method":"ping","id":\#(id)}"#)
            let seconds = (clock.now - start) / .seconds(1)
            lock.withLock {
                if answer?["id"] as? Int == id, answer?["result"] != nil {
                    latencies.append(seconds)
                } else {
                    failures.append("ping \(id): \(answer.map { "\($0)" } ?? "no answer")")
                }
            }
            usleep(2_000)
        }
        done.signal()
    }

    /// Stops pinging and returns the latencies (seconds, sorted) and the failures.
    func stop() -> (latencies: [Double], failures: [String]) {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { (latencies.sorted(), failures) }
    }

    static func summary(_ sorted: [Double]) -> String {
        guard !sorted.isEmpty else { return "no pings" }
        func at(_ q: Double) -> String { String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000) }
        return "\(sorted.count) pings, p50 \(at(0.5)), p99 \(at(0.99)), max \(at(1))"
    }
}

/// Sends a batch, reads its answer line (counting bytes, keeping none), and again, `rounds`
/// times, on a thread of its own.
final class SocketBatchLooper: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var answers = 0
    private var answerBytes = 0
    private var failure: String?

    init(path: String, batch: [UInt8], rounds: Int) throws {
        let fd = try SocketClients.connect(path)
        SocketClients.setTimeout(fd, SO_RCVTIMEO, seconds: 120)
        let thread = Thread { [self] in
            defer {
                close(fd)
                done.signal()
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            for round in 0..<rounds {
                guard SocketClients.send(fd, batch) == batch.count else { return fail("round \(round): send failed") }
                var bytes = 0
                while true {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    guard count > 0 else { return fail("round \(round): no answer after \(bytes) bytes") }
                    bytes += count
                    // One line per batch: its newline is its last byte.
                    if buffer[count - 1] == 0x0A { break }
                }
                lock.withLock {
                    answers += 1
                    answerBytes += bytes
                }
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func fail(_ reason: String) {
        lock.withLock { failure = reason }
    }

    /// Waits for the rounds to end (each has the receive time-out as its deadline).
    func wait() -> (answers: Int, bytes: Int, failure: String?) {
        done.wait()
        return lock.withLock { (answers, answerBytes, failure) }
    }
}

/// Connections that each hold a partial request line and add a byte now and then, never a
/// newline (slowloris), each watched until the daemon closes it.
final class SocketSlowloris: @unchecked Sendable {
    private let fds: [CInt]
    private let lock = NSLock()
    private var closedAt: [Int: String] = [:]
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(path: String, count: Int) throws {
        fds = try (0..<count).map { _ in try SocketClients.connect(path) }
        for fd in fds {
            _ = SocketClients.send(fd, Array(#"{"jsonrpc":"2.0","#.utf8))
            SocketClients.setTimeout(fd, SO_RCVTIMEO, seconds: 0)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let thread = Thread { [self] in run() }
        thread.start()
    }

    deinit { for fd in fds { close(fd) } }

    /// Every 200 ms: a byte to each connection still open, and a look at what came back.
    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = [Int: [UInt8]]()
        while !(lock.withLock { stopped }) {
            for (index, fd) in fds.enumerated() where lock.withLock({ closedAt[index] == nil }) {
                while true {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count > 0 {
                        received[index, default: []] += buffer[0..<count]
                        continue
                    }
                    if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                        let text = String(decoding: received[index] ?? [], as: UTF8.self)
                        lock.withLock { closedAt[index] = text }
                    }
                    break
                }
                if lock.withLock({ closedAt[index] == nil }) { _ = Glibc.send(fd, "x", 1, Int32(MSG_NOSIGNAL)) }
            }
            usleep(200_000)
        }
        done.signal()
    }

    /// What each closed connection received before its end, by index.
    var closed: [Int: String] { lock.withLock { closedAt } }

    func stop() {
        lock.withLock { stopped = true }
        done.wait()
    }
}

/// `count` connections opened by another user (a Python helper under `setpriv`), held until
/// `release()`. The helper reports how many it opened and what the daemon answered those it
/// refused, then waits for its stdin to close.
final class SocketFlood {
    struct Report: Decodable {
        var opened: Int
        /// Connections the daemon ended, with the first line each got.
        var refused: Int
        var messages: [String: Int]
    }

    private let process: Process
    private let input: Pipe
    let report: Report

    static let script = #"""
        import json, resource, select, socket, sys
        path, count = sys.argv[1], int(sys.argv[2])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        conns = []
        for _ in range(count):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            conns.append(s)
        # The refused ones get a line and an end; the admitted ones stay silent. Read until
        # nothing has come for two seconds.
        poller = select.poll()
        by_fd = {s.fileno(): s for s in conns}
        for s in conns:
            poller.register(s, select.POLLIN)
        got, ended, messages = {}, set(), {}
        while True:
            events = poller.poll(2000)
            if not events:
                break
            for fd, _ in events:
                data = by_fd[fd].recv(65536)
                if data:
                    got[fd] = got.get(fd, b"") + data
                    continue
                poller.unregister(fd)
                ended.add(fd)
                line = got.get(fd, b"").split(b"\n")[0].decode(errors="replace")
                try:
                    key = json.loads(line)["error"]["message"]
                except Exception:
                    key = "unreadable: " + line[:200]
                messages[key] = messages.get(key, 0) + 1
        print(json.dumps({"opened": len(conns), "refused": len(ended), "messages": messages}), flush=True)
        sys.stdin.read()
        """#

    /// Runs the helper as `uid`/`gid` with its groups from the system (`--init-groups`).
    init(directory: String, socket: String, count: Int, uid: UInt32, gid: UInt32) throws {
        let scriptPath = directory + "/socket-flood.py"
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        chmod(scriptPath, 0o644)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--", "/usr/bin/python3", scriptPath, socket, "\(count)"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.environment = ["PATH": "/usr/bin:/bin"]
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let overdue = process.deadline(120, "the connection flood's report")
        defer { overdue.end() }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let report = try? JSONDecoder().decode(Report.self, from: line) else {
            let exit = process.isRunning ? "-" : "\(process.terminationStatus)"
            throw FixtureError("the flood helper reported \(String(decoding: line, as: UTF8.self)) (exit \(exit))")
        }
        self.report = report
    }

    /// Closes every connection of the helper and waits for it to end.
    func release() {
        try? input.fileHandleForWriting.close()
        let overdue = process.deadline(60, "the connection flood to end")
        defer { overdue.end() }
        process.waitUntilExit()
    }

    /// Raises this process's open-file limit (children inherit it) to at least `count`.
    static func raiseOpenFiles(to count: Int) {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = rlim_t(count)
        if limit.rlim_max < rlim_t(count) { limit.rlim_max = rlim_t(count) }
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
