import Foundation

/// The test's stand-in for systemd: an AF_UNIX datagram socket whose path goes into the
/// daemon's `NOTIFY_SOCKET`, read for `READY=1`, `STATUS=`, `RELOADING=1`, `STOPPING=1`.
final class NotifySocket {
    let path: String
    private let fd: CInt
    private(set) var received: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let result = UnixAddress.bind(fd, path)
        guard fd >= 0, result == 0 else { throw FixtureError("cannot bind notify socket \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Waits for a datagram containing `assignment` (e.g. "READY=1"); returns that datagram.
    func wait(for assignment: String, timeout: TimeInterval = 30) -> String? {
        if let found = received.first(where: { $0.split(separator: "\n").contains(Substring(assignment)) }) {
            received.removeAll { $0 == found }
            return found
        }
        // Monotonic: the clock-step tests move the wall clock by hours.
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while clock.now < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = clock.now.duration(to: deadline).components
            let milliseconds = CInt(max(1, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000))
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let datagram = String(decoding: buffer[0..<count], as: UTF8.self)
            if datagram.split(separator: "\n").contains(Substring(assignment)) { return datagram }
            received.append(datagram)
        }
        return nil
    }
}
