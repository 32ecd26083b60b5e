import Glibc

/// A bound `SOCK_DGRAM` unix socket, as systemd's `NOTIFY_SOCKET` is: where a daemon started
/// by a benchmark reports `READY=1`.
public enum DatagramSocket {
    /// A new socket bound at `path` (a file there before is replaced), close-on-exec.
    public static func bound(to path: String) throws -> CInt {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoadError("notify socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw LoadError("notify socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LoadError("cannot bind notify socket \(path): \(reason)")
        }
        return fd
    }
}
