import Foundation
import Glibc

/// A blocking stream connection to this machine (TCP on 127.0.0.1, or a unix socket), every
/// read bounded by a deadline: the raw HTTP and WebSocket the browser tests speak to Chromium
/// and to widgetd-web.
final class StreamConnection {
    enum Target {
        case tcp(port: Int)
        case unix(path: String)
    }

    private let fd: CInt
    private var buffer: [UInt8] = []

    convenience init(port: Int) throws { try self.init(.tcp(port: port)) }

    init(_ target: Target) throws {
        switch target {
        case .tcp(let port):
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw FixtureError("cannot connect to 127.0.0.1:\(port): \(reason)")
            }
        case .unix(let path):
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
            let result = UnixAddress.connect(fd, path)
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw FixtureError("cannot connect to \(path): \(reason)")
            }
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw FixtureError("send: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// The next `count` bytes.
    func read(_ count: Int, by deadline: ContinuousClock.Instant, _ what: @autoclosure () -> String) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill(by: deadline, what()) else { throw FixtureError("connection closed while waiting for \(what())") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Everything up to and including `marker`. When the peer closes first: with `orEnd`, what
    /// came before; otherwise an error.
    func read(
        through marker: String, by deadline: ContinuousClock.Instant, _ what: @autoclosure () -> String, orEnd: Bool = false
    ) throws -> String {
        let needle = Array(marker.utf8)
        while true {
            if let end = Self.find(needle, in: buffer) {
                defer { buffer.removeFirst(end) }
                return String(decoding: buffer[0..<end], as: UTF8.self)
            }
            guard try fill(by: deadline, what()) else {
                if orEnd {
                    defer { buffer.removeAll() }
                    return String(decoding: buffer, as: UTF8.self)
                }
                throw FixtureError("connection closed while waiting for \(what()); got: \(String(decoding: buffer, as: UTF8.self).suffix(500))")
            }
        }
    }

    /// Everything until the peer closes.
    func readToEnd(by deadline: ContinuousClock.Instant, _ what: String) throws -> String {
        while try fill(by: deadline, what) {}
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Reads what comes, waiting until `deadline`; false once the peer closed (a reset counts
    /// as closed).
    private func fill(by deadline: ContinuousClock.Instant, _ what: String) throws -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw FixtureError("deadline passed waiting for \(what); got so far: \(String(decoding: buffer, as: UTF8.self).suffix(500))")
            }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(max(1, min(1000, (left / .milliseconds(1)).rounded(.up)))))
            if ready < 0, errno != EINTR { throw FixtureError("poll: \(String(cString: strerror(errno)))") }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { return false }
                throw FixtureError("recv: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start + needle.count }
        }
        return nil
    }

    /// `GET path`: the body, `Content-Length` bytes of it (Chromium keeps the connection
    /// open even when asked to close it).
    static func get(port: Int, _ path: String, within seconds: Double = 10) throws -> String {
        let connection = try StreamConnection(port: port)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let head = try connection.read(through: "\r\n\r\n", by: deadline, "the head of GET \(path)")
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
        guard let length else { throw FixtureError("GET \(path): no Content-Length in \(head)") }
        return String(decoding: try connection.read(length, by: deadline, "the body of GET \(path)"), as: UTF8.self)
    }
}
