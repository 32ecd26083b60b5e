import Foundation

/// One persistent JSON-RPC connection to the daemon: a `widgetctl` process per call costs tens
/// of milliseconds, a request over an open socket well under one, so campaigns of thousands of
/// requests drive the daemon this way. It keeps one read buffer for the connection's life
/// (tens of thousands of calls would otherwise each allocate and clear their own).
final class RPCClient {
    private let fd: CInt
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []
    private var nextID = 0

    init(socket path: String) throws {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.make(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, result == 0 else { throw FixtureError("cannot connect to \(path)") }
        // The deadline of every answer: a daemon that stops answering fails the test, not hangs it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The daemon's JSON-RPC error, or no answer.
    struct Failure: Error, CustomStringConvertible {
        var method: String
        var code: Int?
        var message: String
        var description: String { "\(method): \(code.map(String.init) ?? "no answer") \(message)" }
    }

    /// Sends one request and returns its `result`; throws the error the daemon answered, or
    /// when no answer came within 30 s.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> Any {
        nextID += 1
        let object: [String: Any] = ["jsonrpc": "2.0", "id": nextID, "method": method, "params": params]
        var line = try JSONSerialization.data(withJSONObject: object)
        line.append(0x0A)
        guard send(line), let answerLine = readLine(),
            let answer = (try? JSONSerialization.jsonObject(with: answerLine)) as? [String: Any]
        else {
            throw Failure(method: method, code: nil, message: "no answer within 30 s (or the connection closed)")
        }
        if let error = answer["error"] as? [String: Any] {
            throw Failure(method: method, code: error["code"] as? Int, message: error["message"] as? String ?? "")
        }
        guard answer["id"] as? Int == nextID else {
            throw Failure(method: method, code: nil, message: "answer to another request: \(answer)")
        }
        return answer["result"] ?? NSNull()
    }

    func object(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        try call(method, params) as? [String: Any] ?? [:]
    }

    func array(_ method: String, _ params: [String: Any] = [:]) throws -> [[String: Any]] {
        try call(method, params) as? [[String: Any]] ?? []
    }

    private func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    /// The next line without its newline, or nil at end of stream or time-out.
    private func readLine() -> Data? {
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: 0x0A) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[..<count])
        }
    }
}
