import Glibc
import NIOCore
import WidgetCore

/// Reads who is at the other end of a freshly accepted control connection: `SO_PEERCRED`
/// (pid, uid, gid at connect time) and, for callers that need a decision, `SO_PEERGROUPS`
/// (their supplementary groups at connect time, Linux >= 4.13). Read once per connection;
/// nothing a client sends can change it.
enum PeerCredentialReader {
    /// Kernel's `struct ucred`.
    private struct UCred: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func read(_ channel: any Channel, daemonUID: UInt32) -> EventLoopFuture<PeerCredentials> {
        guard let socket = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(CredentialError("not a socket channel"))
        }
        let peer: EventLoopFuture<UCred> = socket.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return peer.flatMap { cred in
            let credentials = PeerCredentials(uid: cred.uid, gid: cred.gid, pid: cred.pid)
            // Root and the daemon's own user may do everything: their groups never matter.
            if cred.uid == 0 || cred.uid == daemonUID { return channel.eventLoop.makeSucceededFuture(credentials) }
            return groups(socket).map { groups in
                var withGroups = credentials
                withGroups.groups = groups
                return withGroups
            }
        }
    }

    /// SO_PEERGROUPS writes as many gids as fit and fails with ERANGE when they do not, but
    /// NIO's typed getter does not return the length it got back. The kernel keeps a
    /// process's groups sorted ascending (group_info is binary-searched), so the list is the
    /// non-decreasing prefix of the zero-filled buffer; only "no groups" and "just gid 0"
    /// look alike, and a one-byte read (ERANGE unless there are none) tells them apart.
    private static func groups(_ socket: any SocketOptionProvider) -> EventLoopFuture<[UInt32]> {
        let small: EventLoopFuture<SIMD64<UInt32>> = socket.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
        return small.map { slots in (0..<slots.scalarCount).map { slots[$0] } }
            .flatMapError { error in
                guard isERANGE(error) else { return socket.eventLoop.makeFailedFuture(error) }
                let large: EventLoopFuture<GroupSlots1024> = socket.unsafeGetSocketOption(
                    level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
                // More than 1,024 groups: only the primary group counts (fewer rights, never more).
                return large.map(\.array).flatMapErrorThrowing { error in
                    guard isERANGE(error) else { throw error }
                    return []
                }
            }
            .flatMap { slots in
                let prefix = sortedPrefix(slots)
                guard prefix == [0] else { return socket.eventLoop.makeSucceededFuture(prefix) }
                let probe: EventLoopFuture<UInt8> = socket.unsafeGetSocketOption(
                    level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
                return probe.map { _ in [UInt32]() }.flatMapErrorThrowing { error in
                    guard isERANGE(error) else { throw error }
                    return [0]
                }
            }
    }

    /// The groups in a zero-filled buffer of sorted gids: up to the first decrease.
    static func sortedPrefix(_ slots: [UInt32]) -> [UInt32] {
        guard let first = slots.first else { return [] }
        var result = [first]
        for gid in slots.dropFirst() {
            guard gid >= result[result.count - 1] else { break }
            result.append(gid)
        }
        // Trailing zeros after a lone 0 are padding: group 0 once.
        if result.allSatisfy({ $0 == 0 }) { return [0] }
        return result
    }

    private static func isERANGE(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == ERANGE
    }

    /// Room for 1,024 groups.
    private struct GroupSlots1024: Sendable {
        var parts: (
            SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>,
            SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>,
            SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>, SIMD64<UInt32>)

        var array: [UInt32] {
            withUnsafeBytes(of: parts) { Array($0.bindMemory(to: UInt32.self)) }
        }
    }
}
