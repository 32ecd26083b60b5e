import Glibc
import WidgetCore

extension RemoteIdentity {
    /// The account as a socket peer with it would be seen: uid, primary group and
    /// supplementary groups, read once at start. Nil identity: the daemon's own user.
    static func credentials(_ identity: RemoteIdentity?) throws -> PeerCredentials {
        guard let identity else { return .currentProcess }
        let entry: UnsafeMutablePointer<passwd>? = switch identity {
        case .user(let name): getpwnam(name)
        case .uid(let uid): getpwuid(uid)
        }
        guard let entry else {
            switch identity {
            case .uid(let uid):
                // A uid without an account acts with no groups at all.
                return PeerCredentials(uid: uid, gid: .max, pid: getpid())
            case .user(let name):
                throw ServerError("[remote] user: no user named '\(name)'")
            }
        }
        let uid = entry.pointee.pw_uid
        let gid = entry.pointee.pw_gid
        let name = entry.pointee.pw_name
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, gid, &groups, &count)
        }
        return PeerCredentials(uid: uid, gid: gid, pid: getpid(), groups: Array(groups.prefix(Int(max(0, count)))))
    }
}
