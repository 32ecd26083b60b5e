import CSystemd
import Glibc
import WidgetCore

/// Who sent a method call, from the bus (`sd_bus_query_sender_creds`): the uid and pid
/// dbus-daemon read with SO_PEERCRED when the caller connected, never what the caller says;
/// the same `PeerCredentials` the socket builds, for the same access policy.
///
/// Groups: those the bus reports when it does (dbus-daemon's `UnixGroupIDs`, from
/// SO_PEERGROUPS); a bus that does not (dbus-daemon 1.14) leaves the account's groups in the
/// user database, which is also how dbus-daemon applies its own `<policy group=...>`.
enum DBusCaller {
    static func credentials(of message: OpaquePointer) -> PeerCredentials {
        let mask =
            UInt64(SD_BUS_CREDS_UID) | UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_PID)
            | UInt64(SD_BUS_CREDS_SUPPLEMENTARY_GIDS)
        var creds: OpaquePointer?
        guard sd_bus_query_sender_creds(message, mask, &creds) >= 0, let creds else { return .unidentified }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        // The uid the bus saw at connect time (the effective one); sd-bus files it as UID or
        // EUID depending on the bus.
        guard sd_bus_creds_get_euid(creds, &uid) >= 0 || sd_bus_creds_get_uid(creds, &uid) >= 0 else { return .unidentified }
        var pid: pid_t = 0
        if sd_bus_creds_get_pid(creds, &pid) < 0 { pid = 0 }
        var list: UnsafePointer<gid_t>?
        let count = sd_bus_creds_get_supplementary_gids(creds, &list)
        // Groups sd-bus filled in itself from /proc/PID (the bus did not report them) are not
        // taken: the caller may have exited and its pid gone to another process by then.
        let augmented = sd_bus_creds_get_augmented_mask(creds) & UInt64(SD_BUS_CREDS_SUPPLEMENTARY_GIDS) != 0
        let reported = count >= 0 && list != nil && !augmented ? Array(UnsafeBufferPointer(start: list, count: Int(count))) : nil
        let account = accountGroups(uid)
        // A uid with no account has no group: fewer rights, never more.
        let gid = account?.gid ?? .max
        let groups = (reported ?? account?.groups ?? []).sorted()
        return PeerCredentials(uid: uid, gid: gid, pid: pid, groups: groups)
    }

    /// The account's primary group and every group it belongs to (`getgrouplist`).
    static func accountGroups(_ uid: uid_t) -> (gid: gid_t, groups: [gid_t])? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        let gid = entry.pointee.pw_gid
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid, &groups, &count) >= 0 else { return (gid, []) }
        }
        return (gid, Array(groups.prefix(Int(count))))
    }
}
