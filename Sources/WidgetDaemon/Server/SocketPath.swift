import Foundation
import WidgetdClient

enum SocketPath {
    /// Creates the socket's folder, and removes a stale socket file left by a crash. A socket
    /// that still answers belongs to a running daemon: refuse rather than steal it.
    static func prepare(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        guard FileManager.default.fileExists(atPath: path) else { return }
        if isAnswering(path) {
            throw ServerError("another widgetd is already listening on \(path)")
        }
        unlink(path)
    }

    private static func isAnswering(_ path: String) -> Bool {
        guard case .success(let fd) = UnixSocket.connect(path: path) else { return false }
        close(fd)
        return true
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
