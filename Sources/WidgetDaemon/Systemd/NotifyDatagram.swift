import CSystemd
import Foundation
import Synchronization
import WidgetStore

/// A non-blocking datagram socket to `NOTIFY_SOCKET` (a path, or `@name` in the abstract
/// namespace), for messages that may be sent from the event loop.
final class NotifyDatagram: Sendable {
    private let fd: Int32
    private let address: [UInt8]

    init?(path: String) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 } else { bytes.append(0) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count
        self.address = withUnsafeBytes(of: &address) { Array($0.prefix(length)) }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
    }

    deinit {
        close(fd)
    }

    /// False when the socket's queue is full (or the send failed otherwise).
    func send(_ message: String) -> Bool {
        let bytes = Array(message.utf8)
        return address.withUnsafeBytes { address in
            address.withMemoryRebound(to: sockaddr.self) { pointer in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), pointer.baseAddress, socklen_t(address.count)) == bytes.count
            }
        }
    }
}
