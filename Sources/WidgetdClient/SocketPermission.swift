import Foundation
import Glibc

/// Why the file system refused a connection to the socket (EACCES), and what to do about it:
/// which folder or file is closed, its owner, group and mode, and which group to join.
enum SocketPermission {
    static func explain(_ path: String) -> String {
        var folder = ""
        for component in (path as NSString).deletingLastPathComponent.split(separator: "/") {
            folder += "/" + component
            if access(folder, X_OK) != 0, let info = FileInfo(folder) {
                let advice = joinAdvice(info, needed: 0o010)
                    ?? "its owner must open it (chmod o+x \(folder)), or widgetd must use another --socket"
                return "permission denied on \(path): the folder \(folder) (\(info)) is closed to you; \(advice)"
            }
        }
        guard let info = FileInfo(path) else { return "permission denied on \(path)" }
        let advice = joinAdvice(info, needed: 0o020)
            ?? "the socket is open to no group; widgetd gives it the host group ([access] host-group, default widgetd) "
            + "when that group exists: create it (sudo groupadd --system widgetd), restart widgetd, "
            + "then join it (sudo usermod -aG widgetd $USER, then log in again)"
        return "permission denied on \(path) (\(info)): \(advice)"
    }

    /// Which group to join, when the file's group has the access `needed` (bits of the
    /// group's triple) and is not root's; nil otherwise.
    private static func joinAdvice(_ info: FileInfo, needed: mode_t) -> String? {
        guard info.gid != 0, info.mode & needed != 0 else { return nil }
        let group = info.group
        if Accounts.databaseGroups().contains(info.gid) {
            return "you are in group \(group), but this session is not yet: log in again (or run 'newgrp \(group)')"
        }
        return "join group \(group) (sudo usermod -aG \(group) $USER, then log in again)"
    }
}

/// A file's owner, group and mode, as the messages show them.
private struct FileInfo: CustomStringConvertible {
    var uid: uid_t
    var gid: gid_t
    var mode: mode_t

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        uid = info.st_uid
        gid = info.st_gid
        mode = info.st_mode & 0o7777
    }

    var owner: String { Accounts.userName(uid) ?? "uid \(uid)" }
    var group: String { Accounts.groupName(gid) ?? "gid \(gid)" }

    var description: String {
        "owner \(owner), group \(group), mode \(String(format: "%04o", mode))"
    }
}

/// The account database, read through NSS with the reentrant calls (an app may connect from
/// several threads).
private enum Accounts {
    static func userName(_ uid: uid_t) -> String? {
        withBuffer { buffer in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &found)
            return (status, found == nil ? nil : String(cString: entry.pw_name))
        }
    }

    static func groupName(_ gid: gid_t) -> String? {
        withBuffer { buffer in
            var entry = group()
            var found: UnsafeMutablePointer<group>?
            let status = getgrgid_r(gid, &entry, buffer.baseAddress!, buffer.count, &found)
            return (status, found == nil ? nil : String(cString: entry.gr_name))
        }
    }

    /// The groups the database gives the caller's user, which a session started before a
    /// `usermod -aG` does not have yet.
    static func databaseGroups() -> [gid_t] {
        guard let name = userName(getuid()) else { return [] }
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var found = count
            if getgrouplist(name, getgid(), &groups, &found) >= 0 { return Array(groups.prefix(Int(found))) }
            guard found > count else { return [] }
            count = found
        }
    }

    private static func withBuffer<T>(_ body: (UnsafeMutableBufferPointer<CChar>) -> (CInt, T?)) -> T? {
        var size = 16 * 1024
        while size <= 16 * 1024 * 1024 {
            var buffer = [CChar](repeating: 0, count: size)
            let (status, value) = buffer.withUnsafeMutableBufferPointer { body($0) }
            if status == ERANGE {
                size *= 4
                continue
            }
            return status == 0 ? value : nil
        }
        return nil
    }
}
