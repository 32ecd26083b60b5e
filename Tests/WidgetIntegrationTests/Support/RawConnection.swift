import Foundation

/// A plain socket for sending exactly the bytes a test wants (malformed JSON, huge lines).
final class RawConnection {
    private let fd: CInt
    private var pending = Data()

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.make(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, result == 0 else { throw FixtureError("cannot connect to \(path)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes all of `data`; false when the peer has closed.
    @discardableResult
    func send(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    func send(_ text: String) { send(Data(text.utf8)) }

    /// Says "no more requests" but keeps reading (a half-close, as `socat` or a script does).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, or nil at end of stream.
    func readLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                return line
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Sends one line and decodes the answer line as a JSON object.
    func request(_ line: String) -> [String: Any]? {
        send(line + "\n")
        guard let answer = readLine(), let data = answer.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `error.code` of a JSON-RPC answer.
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}
