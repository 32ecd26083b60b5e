import Foundation

/// A plain socket for sending exactly the bytes a test wants (malformed JSON, huge lines) and
/// reading the answers line by line. It keeps one read buffer for the connection's life: a
/// campaign makes tens of thousands of calls over one connection (`RPCClient`).
final class RawConnection {
    private let fd: CInt
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let result = UnixAddress.connect(fd, path)
        guard fd >= 0, result == 0 else { throw FixtureError("cannot connect to \(path)") }
        // The deadline of every answer: a daemon that stops answering fails the test, not hangs it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes all of `data`; false when the peer has closed.
    @discardableResult
    func send(_ data: Data) -> Bool {
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

    func send(_ text: String) { send(Data(text.utf8)) }

    /// Says "no more requests" but keeps reading (a half-close, as `socat` or a script does).
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, or nil at end of stream or after 30 s without one.
    func readLine() -> String? {
        readLineBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The next line without its newline, or nil at end of stream or after 30 s without one.
    func readLineBytes() -> Data? {
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

    /// Sends one line and decodes the answer line as a JSON object.
    func request(_ line: String) -> [String: Any]? {
        send(line + "\n")
        guard let answer = readLineBytes() else { return nil }
        return (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any]
    }
}
