import Foundation
import Glibc

/// Connecting a unix stream socket by path: shared by the client and the daemon's check for
/// a live socket before it replaces a stale one.
public enum UnixSocket {
    /// A connected descriptor, or the reason it could not connect.
    public static func connect(path: String) -> Result<CInt, UnixSocketError> {
        // Close-on-exec: a client that spawns processes (an app, the load generator starting
        // redis) must not hand them its connection to the daemon.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(UnixSocketError(errno: errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return .failure(UnixSocketError("path too long for a unix socket", errno: ENAMETOOLONG))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = UnixSocketError(errno: errno)
            close(fd)
            return .failure(error)
        }
        return .success(fd)
    }
}

public struct UnixSocketError: Error, CustomStringConvertible {
    public var description: String
    /// The errno of the failed call (EACCES: the file system refused the caller).
    public var errno: Int32

    init(_ description: String, errno: Int32) {
        self.description = description
        self.errno = errno
    }

    init(errno: Int32) {
        self.init(String(cString: strerror(errno)), errno: errno)
    }
}
