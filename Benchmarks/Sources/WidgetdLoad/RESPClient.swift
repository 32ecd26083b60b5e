import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking Redis client for the checks around the measured runs: one command at a time,
/// the reply's bytes returned as text (not the measuring path).
final class RESPClient {
    private let fd: CInt
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = try LoadClient.connect(path: path)
    }

    deinit { close(fd) }

    /// Sends one command and returns its whole reply (first line without CRLF for simple
    /// replies); an error reply throws.
    @discardableResult
    func call(_ arguments: [String], timeout: Double = 30) throws -> String {
        let request = RESPReply.command(arguments)
        var offset = 0
        while offset < request.count {
            let count = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, request.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LoadError("send: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
        let deadline = monotonicSeconds() + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = RESPReply.end(in: buffer, from: 0) {
                let reply = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeSubrange(0..<end)
                if reply.hasPrefix("-") { throw LoadError("\(arguments.first ?? ""): \(reply.trimmingCharacters(in: .whitespacesAndNewlines))") }
                return reply.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw LoadError("\(arguments.first ?? ""): no reply within \(Int(timeout)) s") }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, CInt(min(remaining * 1000 + 1, 1000))) > 0 else { continue }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw LoadError("recv: \(String(cString: strerror(errno)))")
            }
            if count == 0 { throw LoadError("redis-server closed the connection") }
            buffer += chunk[0..<count]
        }
    }
}
