import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the load generator produced.
struct LoadRun {
    var completed = 0
    var failures = 0
    var failureSamples: [String] = []
    /// One per completed request (failures included), nanoseconds from send to answer.
    var latencies: [Int64] = []
    var elapsed: Double = 0
    /// CPU seconds the generator's thread used during the run.
    var generatorCPU: Double = 0

    var succeeded: Int { completed - failures }
}

/// The load generator for both servers: one thread, one poll set, `connections` unix
/// sockets opened once and kept for every run, each with at most one request in flight (no
/// pipelining), the next sent as soon as the answer arrives. This is the shape of
/// `redis-benchmark -c N -P 1`, so a small machine spends little on the client, and widgetd
/// and Redis see the same client: only `WireFraming` differs between them.
final class LoadGenerator {
    let connections: Int
    let framing: WireFraming
    private var fds: [CInt] = []

    init(socketPath: String, connections: Int, framing: WireFraming) throws {
        self.connections = connections
        self.framing = framing
        do {
            for _ in 0..<connections {
                let fd = try LoadClient.connect(path: socketPath)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                fds.append(fd)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        for fd in fds { Glibc.close(fd) }
        fds = []
    }

    private struct Connection {
        var buffer: [UInt8] = []
        /// Where the unread answer bytes start in `buffer`.
        var readFrom = 0
        var request = 0
        var sentAt: Int64 = 0
        var busy = false
    }

    /// Sends every request of `batch` (or stops issuing after `seconds`, nil = no limit) and
    /// returns once every request sent has its answer.
    func run(_ batch: RequestBatch, seconds: Double? = nil, stallTimeout: Double = 120) throws -> LoadRun {
        precondition(!fds.isEmpty, "the generator's connections are closed")
        var conns = [Connection](repeating: Connection(), count: fds.count)
        // poll(2) rather than epoll: Glibc's Swift module does not export <sys/epoll.h>, and
        // with 50 descriptors one poll call costs a few microseconds.
        var pollSet = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var result = LoadRun()
        result.latencies.reserveCapacity(batch.count)
        var issued = 0
        var inFlight = 0

        let cpuStart = threadCPUSeconds()
        let start = monotonicNanoseconds()
        let deadline: Int64? = seconds.map { start + Int64($0 * 1e9) }

        func canIssue(_ now: Int64) -> Bool {
            issued < batch.count && (deadline.map { now < $0 } ?? true)
        }

        func send(_ index: Int) throws {
            let request = issued
            issued += 1
            conns[index].request = request
            conns[index].busy = true
            inFlight += 1
            let fd = fds[index]
            conns[index].sentAt = monotonicNanoseconds()
            try batch.bytes.withUnsafeBytes { raw in
                var offset = batch.starts[request]
                let end = batch.starts[request + 1]
                while offset < end {
                    let count = Glibc.send(fd, raw.baseAddress! + offset, end - offset, Int32(MSG_NOSIGNAL))
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN {
                            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                            _ = poll(&entry, 1, 1000)
                            continue
                        }
                        throw LoadError("send: \(String(cString: strerror(errno)))")
                    }
                    offset += count
                }
            }
        }

        for index in conns.indices where canIssue(monotonicNanoseconds()) {
            try send(index)
        }

        var chunk = [UInt8](repeating: 0, count: 65536)
        var lastProgress = monotonicNanoseconds()
        while inFlight > 0 {
            let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
            if ready < 0 {
                if errno == EINTR { continue }
                throw LoadError("poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 {
                if Double(monotonicNanoseconds() - lastProgress) / 1e9 > stallTimeout {
                    throw LoadError("no answer for \(Int(stallTimeout)) s with \(inFlight) requests in flight")
                }
                continue
            }
            for index in pollSet.indices where pollSet[index].revents != 0 {
                pollSet[index].revents = 0
                while true {
                    let count = recv(fds[index], &chunk, chunk.count, 0)
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN { break }
                        throw LoadError("recv: \(String(cString: strerror(errno)))")
                    }
                    if count == 0 { throw LoadError("the server closed connection \(index)") }
                    conns[index].buffer.append(contentsOf: chunk[0..<count])
                    if count < chunk.count { break }
                }
                while let (end, verdict) = framing.nextAnswer(
                    in: conns[index].buffer, from: conns[index].readFrom, number: batch.first + conns[index].request)
                {
                    let now = monotonicNanoseconds()
                    guard conns[index].busy else { throw LoadError("an answer nobody asked for on connection \(index)") }
                    conns[index].readFrom = end
                    conns[index].busy = false
                    inFlight -= 1
                    result.latencies.append(now - conns[index].sentAt)
                    result.completed += 1
                    if verdict != .success {
                        result.failures += 1
                        if result.failureSamples.count < 5 { result.failureSamples.append(verdict.description) }
                    }
                    lastProgress = now
                    if canIssue(now) { try send(index) }
                }
                if conns[index].readFrom == conns[index].buffer.count {
                    conns[index].buffer.removeAll(keepingCapacity: true)
                    conns[index].readFrom = 0
                }
            }
        }
        result.elapsed = Double(monotonicNanoseconds() - start) / 1e9
        result.generatorCPU = threadCPUSeconds() - cpuStart
        return result
    }
}

/// CPU seconds the calling thread has used (the generator runs on one thread; the process
/// also has a notify-socket thread of LoadDaemon's that must not count).
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
