import Foundation
import Glibc

/// A socket connected or bound to a unix socket path; each answers as the C call does (0, or
/// -1 with `errno` set).
enum UnixAddress {
    static func connect(_ fd: CInt, _ path: String) -> CInt {
        var address = sockaddr_un.make(path)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    static func bind(_ fd: CInt, _ path: String) -> CInt {
        var address = sockaddr_un.make(path)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

extension sockaddr_un {
    static func make(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
            raw[min(bytes.count, raw.count - 1)] = 0
        }
        return address
    }
}
