import Foundation
import Glibc
import WidgetCore
import WidgetProtocol

/// A blocking JSON-RPC connection to the daemon. One request at a time; not shared
/// between threads.
public final class WidgetdConnection {
    public let path: String
    private let fd: CInt
    private var buffer = Data()
    /// The id of the next request (batches take theirs from here too).
    var nextID: Int64 = 1

    /// Connects to `path`; nil: the first socket of `SocketLocation.candidates()` that is
    /// there (the user's own daemon, else the system's).
    public init(path: String? = nil) throws(WidgetdClientError) {
        let candidates = path.map { [$0] } ?? SocketLocation.candidates()
        guard let chosen = SocketLocation.firstPresent(candidates) else {
            throw .cannotConnect(path: candidates.joined(separator: " or "), reason: "no such socket (is widgetd running?)")
        }
        self.path = chosen
        switch UnixSocket.connect(path: chosen) {
        case .success(let fd): self.fd = fd
        case .failure(let error) where error.errno == EACCES:
            throw .permissionDenied(path: chosen, explanation: SocketPermission.explain(chosen))
        case .failure(let error): throw .cannotConnect(path: chosen, reason: error.description)
        }
    }

    deinit {
        close(fd)
    }

    /// Gives up reading an answer after `seconds` (a read that times out ends the connection
    /// as lost), for callers that must not wait on a stuck daemon, such as shell completion.
    public func limitReads(to seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Calls `spec`'s method and gives its typed result; a daemon error becomes
    /// `.daemon(RPCError)`.
    ///
    /// ```swift
    /// let due = try connection.call(Methods.ReloadTimelines.self, ReloadTimelinesParams(kinds: ["com.example.weather"]))
    /// print(due.instances)
    /// ```
    public func call<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) throws(WidgetdClientError) -> Spec.Result {
        try call(spec, sending: params)
    }

    /// As above, for a method that takes no params.
    public func call<Spec: MethodSpec>(_ spec: Spec.Type) throws(WidgetdClientError) -> Spec.Result where Spec.Params == EmptyParams {
        try call(spec, sending: EmptyParams())
    }

    /// As above, with params in a form of the caller's that encodes as `Spec.Params` would:
    /// a timeline sent as the user wrote it, so that the daemon's checks (and their messages)
    /// apply rather than the client's.
    public func call<Spec: MethodSpec, Params: Encodable>(
        _ spec: Spec.Type, sending params: Params
    ) throws(WidgetdClientError) -> Spec.Result {
        let line = try raw(Spec.name, params)
        do {
            let head = try WidgetJSON.decoder.decode(RPCResponseHead.self, from: line)
            if let error = head.error { throw WidgetdClientError.daemon(error) }
            return try WidgetJSON.decoder.decode(RPCResultBox<Spec.Result>.self, from: line).result
        } catch let error as WidgetdClientError {
            throw error
        } catch {
            throw .badResponse("\(error)")
        }
    }

    /// Sends a request, checks its answer, then hands every following line (notifications)
    /// to `handle` until the daemon closes the connection.
    public func stream<Spec: MethodSpec>(
        _ spec: Spec.Type, _ params: Spec.Params, _ handle: (Data) -> Void
    ) throws(WidgetdClientError) {
        let answer = try raw(Spec.name, params)
        if let head = try? WidgetJSON.decoder.decode(RPCResponseHead.self, from: answer), let error = head.error {
            throw .daemon(error)
        }
        while true {
            handle(try readLine())
        }
    }

    /// Sends `subscribe` and checks its answer; the events then come from `nextEvent()`. For a
    /// subscriber that must read the state between the two, so that no event falls in a gap.
    public func subscribe() throws(WidgetdClientError) {
        let answer = try raw(Methods.Subscribe.name, EmptyParams())
        if let head = try? WidgetJSON.decoder.decode(RPCResponseHead.self, from: answer), let error = head.error {
            throw .daemon(error)
        }
    }

    /// The next line the daemon sends after `subscribe()`: an event notification. Blocks until
    /// one comes; throws `.connectionLost` when the daemon goes away.
    public func nextEvent() throws(WidgetdClientError) -> Data {
        try readLine()
    }

    /// The next event, or nil when none has come within `seconds` (nil: waits as long as
    /// `nextEvent()`). For a subscriber that has something of its own to do at a time,
    /// such as a bar rewriting a countdown.
    public func nextEvent(within seconds: Double?) throws(WidgetdClientError) -> Data? {
        guard let seconds else { return try readLine() }
        if buffer.contains(UInt8(ascii: "\n")) { return try readLine() }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = CInt(min(max(seconds * 1000, 0).rounded(.up), Double(CInt.max)))
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw .connectionLost(String(cString: strerror(errno))) }
            // Readable: a whole line may take more than one read; readLine blocks for the rest,
            // which the daemon writes at once.
            return ready == 0 ? nil : try readLine()
        }
    }

    /// Sends a request and returns the answer line as it came.
    public func raw<Params: Encodable>(_ method: String, _ params: Params) throws(WidgetdClientError) -> Data {
        let id = nextID
        nextID += 1
        var request: Data
        do {
            request = try WidgetJSON.encoder.encode(RPCRequest(id: .number(id), method: method, params: params))
        } catch {
            throw .badResponse("request not encodable: \(error)")
        }
        request.append(UInt8(ascii: "\n"))
        do {
            try send(request)
        } catch {
            // A daemon at max-connections writes one error line and closes, perhaps before
            // the request went out: that line, still readable, is the answer.
            if let line = try? readLine() { return line }
            throw error
        }
        return try readLine()
    }

    func send(_ data: Data) throws(WidgetdClientError) {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(String(cString: strerror(errno)))
            }
            offset += count
        }
    }

    func readLine() throws(WidgetdClientError) -> Data {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Data(line)
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(String(cString: strerror(errno)))
            }
            if count == 0 { throw .connectionLost("the daemon closed the connection") }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}

public enum WidgetdClientError: Error, CustomStringConvertible {
    /// The socket could not be reached: no daemon, wrong path.
    case cannotConnect(path: String, reason: String)
    /// The file system refused the caller the socket: `explanation` names the socket's owner,
    /// group and mode (or the folder that is closed) and which group to join.
    case permissionDenied(path: String, explanation: String)
    case connectionLost(String)
    /// The daemon answered with a JSON-RPC error.
    case daemon(RPCError)
    case badResponse(String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot reach widgetd at \(path): \(reason)"
        case .permissionDenied(_, let explanation): explanation
        case .connectionLost(let reason): "connection to widgetd lost: \(reason)"
        case .daemon(let error): error.message
        case .badResponse(let reason): "unexpected answer from widgetd: \(reason)"
        }
    }
}
