import Foundation
import Logging
import WidgetdClient

enum SocketPath {
    /// Creates the socket's folder, and removes a stale socket file left by a crash. A socket
    /// that still answers belongs to a running daemon: refuse rather than steal it.
    static func prepare(_ path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Searchable by everyone whatever the umask: the socket's own mode decides who connects.
            chmod(folder, 0o755)
        }
        guard FileManager.default.fileExists(atPath: path) else { return }
        if isAnswering(path) {
            throw ServerError("another widgetd is already listening on \(path)")
        }
        unlink(path)
    }

    /// Opens the bound socket to the host group `group` (`gid` nil: no such group): group
    /// `group`, mode 0660, as systemd's widgetd.socket does, so its members connect to a daemon
    /// started by hand too. Without the group only the daemon's user (and root) connect. A
    /// folder on the way the group cannot search is only reported: it may be someone's home,
    /// not the daemon's to open.
    static func grant(_ path: String, group: String, gid: UInt32?, logger: Logger) {
        chmod(path, 0o660)
        guard let gid else {
            logger.info(
                "no host group on this system: only the socket's owner and root can connect (create the group to open it to hosts)",
                metadata: ["socket": "\(path)", "group": "\(group)"])
            return
        }
        if chown(path, uid_t.max, gid) != 0 {
            // Expected for a user's own daemon outside the group; a fault for root.
            logger.log(
                level: geteuid() == 0 ? .warning : .info,
                "the socket could not be given the host group: only its owner and root can connect",
                metadata: ["socket": "\(path)", "group": "\(group)", "error": "\(String(cString: strerror(errno)))"])
            return
        }
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            var info = stat()
            guard stat(folder, &info) == 0 else { break }
            let searchable = info.st_mode & 0o001 != 0 || (info.st_gid == gid && info.st_mode & 0o010 != 0)
            if !searchable {
                logger.warning(
                    "the host group cannot reach the socket: a folder on its path is closed to it",
                    metadata: [
                        "socket": "\(path)", "folder": "\(folder)", "group": "\(group)",
                        "mode": "\(String(info.st_mode & 0o7777, radix: 8))",
                    ])
                break
            }
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    private static func isAnswering(_ path: String) -> Bool {
        guard case .success(let fd) = UnixSocket.connect(path: path) else { return false }
        close(fd)
        return true
    }
}
