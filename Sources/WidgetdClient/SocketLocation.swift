import Foundation
import Glibc

/// Where the control socket lives when nobody says (docs/widgetctl.md).
public enum SocketLocation {
    /// The system daemon's socket (root's default, and systemd's widgetd.socket).
    public static let systemPath = "/run/widgetd/widgetd.sock"

    /// Where widgetd binds by default: `WIDGETD_SOCKET`, else the system socket for root, else
    /// `$XDG_RUNTIME_DIR/widgetd/widgetd.sock` (`/tmp/widgetd-UID/widgetd.sock` without it).
    public static func defaultPath(
        environment: [String: String] = ProcessInfo.processInfo.environment, uid: uid_t = geteuid()
    ) -> String {
        if let explicit = environment["WIDGETD_SOCKET"], !explicit.isEmpty { return explicit }
        if uid == 0 { return systemPath }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/widgetd/widgetd.sock" }
        return "/tmp/widgetd-\(uid)/widgetd.sock"
    }

    /// The sockets a client tries, in order: `WIDGETD_SOCKET` alone when set; else the
    /// user's own daemon's (`defaultPath`), then the system daemon's. A user with no daemon of
    /// their own reaches the system's without being told where it is.
    public static func candidates(
        environment: [String: String] = ProcessInfo.processInfo.environment, uid: uid_t = geteuid()
    ) -> [String] {
        let own = defaultPath(environment: environment, uid: uid)
        if let explicit = environment["WIDGETD_SOCKET"], !explicit.isEmpty { return [explicit] }
        return own == systemPath ? [own] : [own, systemPath]
    }

    /// The first of `candidates` that is there, or nil when none is.
    public static func firstPresent(_ candidates: [String], isPresent: (String) -> Bool = isPresent) -> String? {
        candidates.first(where: isPresent)
    }

    /// Whether something is at `path`. One that cannot be looked at (a folder on the way is
    /// closed to the caller) counts as there, so connecting says why it is refused.
    public static func isPresent(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 || (errno != ENOENT && errno != ENOTDIR)
    }
}
