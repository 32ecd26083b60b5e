import CSystemd
import Glibc
import WidgetCore

/// Who sent a method call, from the bus (`sd_bus_query_sender_creds`): what dbus-daemon
/// read with SO_PEERCRED and SO_PEERGROUPS when the caller connected, never what the caller
/// says. The same `PeerCredentials` the socket builds, for the same access policy.
enum DBusCaller {
    static func credentials(of message: OpaquePointer) -> PeerCredentials {
        let mask =
            UInt64(SD_BUS_CREDS_UID) | UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_GID) | UInt64(SD_BUS_CREDS_EGID)
            | UInt64(SD_BUS_CREDS_PID) | UInt64(SD_BUS_CREDS_SUPPLEMENTARY_GIDS)
        var creds: OpaquePointer?
        guard sd_bus_query_sender_creds(message, mask, &creds) >= 0, let creds else { return .unidentified }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        // The bus reports the uid it saw at connect time (the effective one); sd-bus files it
        // as UID or EUID depending on the bus.
        guard sd_bus_creds_get_euid(creds, &uid) >= 0 || sd_bus_creds_get_uid(creds, &uid) >= 0 else { return .unidentified }
        var pid: pid_t = 0
        if sd_bus_creds_get_pid(creds, &pid) < 0 { pid = 0 }
        var gid: gid_t = 0
        let hasGID = sd_bus_creds_get_egid(creds, &gid) >= 0 || sd_bus_creds_get_gid(creds, &gid) >= 0
        var list: UnsafePointer<gid_t>?
        let count = sd_bus_creds_get_supplementary_gids(creds, &list)
        var groups = count > 0 && list != nil ? Array(UnsafeBufferPointer(start: list, count: Int(count))) : []
        if !hasGID {
            // No bus reports the primary group apart: it is among the groups dbus-daemon read,
            // and the account's is the best guess at which (fewer rights when it is not: a gid
            // the caller does not have is never added).
            gid = getpwuid(uid).map { $0.pointee.pw_gid }.flatMap { groups.contains($0) ? $0 : nil } ?? gid_t.max
        }
        groups.sort()
        return PeerCredentials(uid: uid, gid: gid, pid: pid, groups: groups)
    }
}
