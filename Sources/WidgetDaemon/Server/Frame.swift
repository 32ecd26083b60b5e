import Glibc
import NIOCore

/// A line read off a connection, or word that the peer sent more than the limit without a
/// newline (after which the connection is answered and closed).
enum Frame: Sendable {
    case line(ByteBuffer)
    case tooLong
}
