import Foundation

/// One page of a browser, driven over the Chrome DevTools Protocol: a WebSocket carrying
/// JSON commands (`Runtime.evaluate`, `Page.captureScreenshot`), each answered by its id.
final class DevToolsPage {
    private let connection: StreamConnection
    private var nextID = 1
    /// Longer than any command takes on a loaded machine.
    static let commandDeadline: Double = 30

    /// `url`: the page's `webSocketDebuggerUrl` (`ws://127.0.0.1:PORT/devtools/page/ID`).
    init(webSocketURL url: String) throws {
        guard let parsed = URL(string: url), let port = parsed.port else { throw FixtureError("not a DevTools address: \(url)") }
        connection = try StreamConnection(port: port)
        try connection.send(
            "GET \(parsed.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: d2lkZ2V0ZC10ZXN0LWtleQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let head = try connection.read(through: "\r\n\r\n", by: Self.deadline(10), "the WebSocket handshake")
        guard head.hasPrefix("HTTP/1.1 101") else { throw FixtureError("DevTools refused the WebSocket: \(head)") }
    }

    /// Sends `method` and returns its `result`; a protocol error throws with its message.
    @discardableResult
    func command(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try sendFrame(Array(message))
        let deadline = Self.deadline(Self.commandDeadline)
        while true {
            let text = try readMessage(by: deadline, "the answer to \(method)")
            guard let answer = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
                answer["id"] as? Int == id
            else { continue }  // events, and answers to nothing we wait for
            if let error = answer["error"] as? [String: Any] { throw FixtureError("\(method): \(error["message"] ?? error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// The value of a JavaScript expression (promises awaited); an exception throws.
    @discardableResult
    func evaluate(_ expression: String) throws -> Any? {
        let result = try command("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            let description = (exception["exception"] as? [String: Any])?["description"] ?? exception["text"] ?? exception
            throw FixtureError("JavaScript failed: \(description)\nin: \(expression)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Evaluates `expression` every 20 ms until `accept` takes its value; past `seconds`
    /// throws naming `what` and the last value.
    @discardableResult
    func waitFor(_ what: String, within seconds: Double = 20, _ expression: String, _ accept: (Any?) -> Bool) throws -> Any? {
        let deadline = Self.deadline(seconds)
        var last: Any?
        while true {
            do {
                last = try evaluate(expression)
            } catch let error where Self.isContextGone(error) {
                last = nil
            }
            if accept(last) { return last }
            guard ContinuousClock.now < deadline else {
                throw FixtureError("waited \(seconds) s for \(what); last value: \(String(describing: last))")
            }
            usleep(20_000)
        }
    }

    /// A navigation under way replaces a page's or frame's JavaScript context, and an
    /// evaluation sent meanwhile is refused with this: it is worth asking again.
    static func isContextGone(_ error: any Error) -> Bool {
        "\(error)".contains("Cannot find context with specified id")
    }

    /// The page as PNG.
    func screenshot() throws -> Data {
        let result = try command("Page.captureScreenshot", ["format": "png"])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else {
            throw FixtureError("Page.captureScreenshot gave no image")
        }
        return data
    }

    // MARK: WebSocket frames (RFC 6455): the client masks what it sends

    private func sendFrame(_ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x81]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
        }
        let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try connection.send(frame)
    }

    private func readMessage(by deadline: ContinuousClock.Instant, _ what: String) throws -> String {
        var message: [UInt8] = []
        while true {
            let head = try connection.read(2, by: deadline, what)
            var length = Int(head[1] & 0x7f)
            if length == 126 {
                length = try connection.read(2, by: deadline, what).reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127 {
                length = try connection.read(8, by: deadline, what).reduce(0) { $0 << 8 | Int($1) }
            }
            let payload = length > 0 ? try connection.read(length, by: deadline, what) : []
            switch head[0] & 0x0f {
            case 0x8: throw FixtureError("DevTools closed the WebSocket while waiting for \(what)")
            case 0x9, 0xA: continue  // ping, pong: Chromium's are not waited on
            default: message += payload
            }
            if head[0] & 0x80 != 0 { return String(decoding: message, as: UTF8.self) }
        }
    }

    private static func deadline(_ seconds: Double) -> ContinuousClock.Instant {
        ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    }
}
