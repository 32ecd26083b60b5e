import Foundation
import Glibc
@testable import WidgetIntegrationSupport

/// A page of another origin, served by the test on a port of its own: what an attacker's site
/// would serve to a visitor's browser. Answers every request with `html` until `stop`.
final class WebAttackPage: @unchecked Sendable {
    let port: Int
    var url: String { "http://127.0.0.1:\(port)/" }
    private let listener: CInt
    private let html: String
    private let stopped = NSLock()
    private var isStopped = false
    private var thread: Thread?

    init(html: String) throws {
        self.html = html
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        var yes: CInt = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<CInt>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw FixtureError("cannot serve the attacker's page: \(String(cString: strerror(errno)))")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.name = "attacker page"
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    func stop() {
        let first = stopped.withLock { () -> Bool in
            defer { isStopped = true }
            return !isStopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func serve() {
        let body = Array(html.utf8)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        while !stopped.withLock({ isStopped }) {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            // The request is read only as far as its head; the answer is the page whatever it asked.
            var buffer = [UInt8](repeating: 0, count: 8192)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = recv(client, &buffer, buffer.count, 0)
            let answer = Array(head.utf8) + body
            _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        }
        close(listener)
    }
}

/// One HTTP/1.1 exchange with the web host over TCP or its unix socket, read whole: the status,
/// the header fields (names lowercased) and the body. Every read has a deadline.
struct WebExchange {
    var status: Int
    var headers: [String: String]
    var body: String

    typealias Target = StreamConnection.Target

    /// `GET path` (or `method` with a JSON `body`), `Connection: close`, read to the end.
    static func send(
        _ target: Target, _ method: String = "GET", _ path: String, body: String? = nil, headers: [String] = [],
        within seconds: Double = 20
    ) throws -> WebExchange {
        let connection = try StreamConnection(target)
        var request = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
        if !headers.contains(where: { $0.lowercased().hasPrefix("host:") }) { request += "Host: 127.0.0.1\r\n" }
        for header in headers { request += header + "\r\n" }
        if let body { request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        request += "\r\n" + (body ?? "")
        try connection.send(request)
        let text = try connection.readToEnd(by: ContinuousClock.now + .milliseconds(Int(seconds * 1000)), "the answer to \(method) \(path)")
        return try parse(text, "\(method) \(path)")
    }

    static func parse(_ text: String, _ what: String) throws -> WebExchange {
        guard let split = text.range(of: "\r\n\r\n") else { throw FixtureError("\(what): no end of head in \(text.prefix(300))") }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "), let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw FixtureError("\(what): no status line in \(text.prefix(300))")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return WebExchange(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}

/// Connections opened in waves against the web host, each asking `GET /events`: those let in
/// are held (the stream's `hello` read), those refused must get a whole `503` with a
/// `Retry-After`, read and then closed by the client.
final class WebFlood {
    let target: WebExchange.Target
    private(set) var held: [StreamConnection] = []
    private(set) var refused = 0
    private(set) var refusedWithRetryAfter = 0
    private(set) var otherAnswers: [String] = []

    init(_ target: WebExchange.Target) { self.target = target }

    /// Opens `count` connections, `wave` at a time: each wave connects and sends, then reads.
    func open(_ count: Int, wave: Int = 50, within seconds: Double = 120) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var left = count
        while left > 0 {
            let size = min(wave, left)
            left -= size
            var connections: [StreamConnection] = []
            for _ in 0..<size {
                let connection = try StreamConnection(target)
                try connection.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                connections.append(connection)
            }
            for connection in connections {
                let head = try connection.read(through: "\r\n\r\n", by: deadline, "the head of an answer to GET /events", orEnd: true)
                if head.hasPrefix("HTTP/1.1 200") {
                    _ = try connection.read(through: "event: hello", by: deadline, "the stream's hello", orEnd: true)
                    held.append(connection)
                } else if head.hasPrefix("HTTP/1.1 503") {
                    refused += 1
                    if head.lowercased().contains("\r\nretry-after: ") { refusedWithRetryAfter += 1 }
                    _ = try connection.readToEnd(by: deadline, "the end of a 503")
                } else {
                    otherAnswers.append(String(head.prefix(120)))
                }
            }
        }
    }

    func release() { held.removeAll() }
}
