import Foundation
import WidgetdClient
#if canImport(Glibc)
import Glibc
#endif

/// A small blocking JSON-RPC client for setting up and watching a daemon under load: one
/// request at a time, answers parsed with JSONSerialization, read time-outs, and the
/// notification lines that arrive after `subscribe`. (Not the measuring path: the load
/// generators pre-encode their requests and parse nothing they do not need.)
public final class LoadClient {
    public let fd: CInt
    private var buffer: [UInt8] = []
    private var nextID = 1

    public init(path: String) throws {
        fd = try LoadClient.connect(path: path)
    }

    deinit { close(fd) }

    /// A connected, blocking unix stream socket (the client library's connect).
    public static func connect(path: String) throws -> CInt {
        switch UnixSocket.connect(path: path) {
        case .success(let fd): return fd
        case .failure(let error): throw LoadError("cannot connect to \(path): \(error)")
        }
    }

    /// Calls `method` and returns its `result`; a JSON-RPC error throws with its message.
    /// Notifications that arrive meanwhile are handed to `notification`.
    @discardableResult
    public func call(
        _ method: String, _ params: [String: Any]? = nil, timeout: Double = 60,
        notification: (([String: Any]) -> Void)? = nil
    ) throws -> Any {
        let id = nextID
        nextID += 1
        var request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(UInt8(ascii: "\n"))
        try send(line)
        let deadline = monotonicSeconds() + timeout
        while true {
            guard let answer = try readLine(timeout: max(0, deadline - monotonicSeconds())) else {
                throw LoadError("\(method): no answer within \(Int(timeout)) s")
            }
            guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                throw LoadError("\(method): answer is not an object")
            }
            if object["id"] == nil || object["id"] is NSNull, object["method"] != nil {
                notification?(object)
                continue
            }
            if let error = object["error"] as? [String: Any] {
                throw LoadError("\(method): \(error["message"] as? String ?? "error") (code \(error["code"] ?? "?"))")
            }
            return object["result"] ?? NSNull()
        }
    }

    public func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LoadError("send: \(String(cString: strerror(errno)))")
                }
                offset += count
            }
        }
    }

    /// The next line (without its newline), or nil when `timeout` passes first. Throws when
    /// the daemon closes the connection.
    public func readLine(timeout: Double) throws -> Data? {
        let deadline = monotonicSeconds() + timeout
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[0..<newline])
                buffer.removeSubrange(0...newline)
                return line
            }
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return nil }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, CInt(min(remaining * 1000 + 1, 1000)))
            if ready < 0 && errno != EINTR { throw LoadError("poll: \(String(cString: strerror(errno)))") }
            if ready <= 0 { continue }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw LoadError("recv: \(String(cString: strerror(errno)))")
            }
            if count == 0 { throw LoadError("the daemon closed the connection") }
            buffer += chunk[0..<count]
        }
    }

    /// The next notification's `params` (e.g. an event after `subscribe`), or nil on time-out.
    public func nextNotification(timeout: Double) throws -> [String: Any]? {
        let deadline = monotonicSeconds() + timeout
        while let line = try readLine(timeout: max(0, deadline - monotonicSeconds())) {
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
            if object["method"] != nil { return object["params"] as? [String: Any] ?? [:] }
        }
        return nil
    }
}
