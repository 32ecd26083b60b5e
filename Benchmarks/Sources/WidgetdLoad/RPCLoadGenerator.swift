import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A request line with a hole for its id: `prefix` ends just before the id's digits, `suffix`
/// starts right after them and ends with the newline.
struct RequestTemplate {
    var prefix: [UInt8]
    var suffix: [UInt8]

    /// `{"jsonrpc":"2.0","id":N,"method":M,"params":P}\n` with `params` given as JSON text.
    init(method: String, paramsJSON: String) {
        prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        suffix = Array(#","method":"\#(method)","params":\#(paramsJSON)}"#.utf8) + [UInt8(ascii: "\n")]
    }
}

/// What a run produced.
struct RPCLoadResult {
    var completed = 0
    var failures = 0
    var failureSamples: [String] = []
    /// One per completed request (failures included), nanoseconds from send to answer.
    var latencies: [Int64] = []
    var elapsed: Double = 0
    /// CPU seconds this process (the load generator) used during the run.
    var clientCPU: Double = 0

    var throughput: Double { elapsed > 0 ? Double(completed) / elapsed : .nan }
}

/// The load generator: one thread, one poll set, `connections` non-blocking unix sockets,
/// each with at most one request in flight (no pipelining), the next sent as soon as the
/// answer arrives. This is the shape of `redis-benchmark` (single-threaded event loop,
/// `-c` clients, `-P 1`), so both servers see the same client behaviour and the generator
/// costs little CPU on a small machine. Requests are pre-encoded templates; of an answer
/// only the `"id"` and whether it has `"result"` or `"error"` are looked at.
final class RPCLoadGenerator {
    let socketPath: String
    let connections: Int
    /// Request `n` (counting from 0) uses `make(n, &buffer)`.
    let make: (Int, inout [UInt8]) -> Void

    init(socketPath: String, connections: Int, make: @escaping (Int, inout [UInt8]) -> Void) {
        self.socketPath = socketPath
        self.connections = connections
        self.make = make
    }

    private struct Connection {
        var fd: CInt
        var buffer: [UInt8] = []
        var expectedID = 0
        var sentAt: Int64 = 0
        var busy = false
    }

    /// Sends requests numbered `first ..< first + total` (or until `seconds` pass, whichever
    /// comes first; nil = no limit) over fresh connections.
    func run(first: Int, total: Int?, seconds: Double?, stallTimeout: Double = 120) throws -> RPCLoadResult {
        precondition(total != nil || seconds != nil)
        var conns: [Connection] = []
        defer { for conn in conns { close(conn.fd) } }
        for _ in 0..<connections {
            let fd = try LoadClient.connect(path: socketPath)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            conns.append(Connection(fd: fd))
        }
        // poll(2) rather than epoll: Glibc's Swift module does not export <sys/epoll.h>, and
        // with 50 descriptors one poll call costs a few microseconds.
        var pollSet = conns.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }

        var result = RPCLoadResult()
        if let total { result.latencies.reserveCapacity(total) }
        var issued = 0
        var inFlight = 0
        var request: [UInt8] = []
        request.reserveCapacity(512)
        let cpuStart = LoadProcess.ownCPUSeconds()
        let start = monotonicNanoseconds()
        let deadline: Int64? = seconds.map { start + Int64($0 * 1e9) }

        func canIssue(_ now: Int64) -> Bool {
            if let total, issued >= total { return false }
            if let deadline, now >= deadline { return false }
            return true
        }

        func send(_ index: Int) throws {
            let number = first + issued
            issued += 1
            request.removeAll(keepingCapacity: true)
            make(number, &request)
            conns[index].expectedID = number
            conns[index].busy = true
            inFlight += 1
            conns[index].sentAt = monotonicNanoseconds()
            try request.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = Glibc.send(conns[index].fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN {
                            var entry = pollfd(fd: conns[index].fd, events: Int16(POLLOUT), revents: 0)
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
                    let count = recv(conns[index].fd, &chunk, chunk.count, 0)
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == EAGAIN { break }
                        throw LoadError("recv: \(String(cString: strerror(errno)))")
                    }
                    if count == 0 { throw LoadError("the server closed connection \(index)") }
                    conns[index].buffer.append(contentsOf: chunk[0..<count])
                    if count < chunk.count { break }
                }
                while let newline = conns[index].buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let now = monotonicNanoseconds()
                    let answer = Self.classify(conns[index].buffer[0..<newline], expectedID: conns[index].expectedID)
                    conns[index].buffer.removeSubrange(0...newline)
                    guard conns[index].busy else {
                        throw LoadError("an answer nobody asked for on connection \(index)")
                    }
                    conns[index].busy = false
                    inFlight -= 1
                    result.latencies.append(now - conns[index].sentAt)
                    result.completed += 1
                    if answer != Answer.success {
                        result.failures += 1
                        if result.failureSamples.count < 5 { result.failureSamples.append("\(answer)") }
                    }
                    lastProgress = now
                    if canIssue(now) { try send(index) }
                }
            }
        }
        result.elapsed = Double(monotonicNanoseconds() - start) / 1e9
        result.clientCPU = LoadProcess.ownCPUSeconds() - cpuStart
        return result
    }

    enum Answer: Equatable, CustomStringConvertible {
        case success
        case error(String)
        case wrongID(String)
        case unreadable(String)

        var description: String {
            switch self {
            case .success: "ok"
            case .error(let line): "error answer: \(line)"
            case .wrongID(let line): "answer with another id: \(line)"
            case .unreadable(let line): "unreadable answer: \(line)"
            }
        }
    }

    private static let idKey = Array(#""id":"#.utf8)
    private static let resultKey = Array(#""result":"#.utf8)
    private static let errorKey = Array(#""error":"#.utf8)

    /// Looks only at the `"id"` and at whether the answer has `"result"` or `"error"`.
    static func classify(_ line: ArraySlice<UInt8>, expectedID: Int) -> Answer {
        func text() -> String { String(decoding: line.prefix(300), as: UTF8.self) }
        guard let idAt = find(idKey, in: line) else { return .unreadable(text()) }
        var index = idAt + idKey.count
        while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
        var id = 0
        var digits = 0
        while index < line.endIndex, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            id = id * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0 else { return .unreadable(text()) }
        guard id == expectedID else { return .wrongID(text()) }
        if find(errorKey, in: line) != nil { return .error(text()) }
        if find(resultKey, in: line) != nil { return .success }
        return .unreadable(text())
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == needle[0] {
                var match = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return index }
            }
            index += 1
        }
        return nil
    }
}

/// Appends the decimal digits of a non-negative number.
@inline(__always)
func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
    if value == 0 {
        buffer.append(UInt8(ascii: "0"))
        return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { raw in
        while rest > 0 {
            raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        }
        for position in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[position]) }
    }
}
