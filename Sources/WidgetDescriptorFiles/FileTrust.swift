import Foundation
import Glibc
import WidgetCore

/// `FileModeRule` applied on this machine: a file and every directory above it up to `/`,
/// both along the path as written and along the path its symbolic links resolve to, so a
/// link's target (and the directories holding it) counts as well as the link.
public enum FileTrust {
    /// nil when `path` and the directories above it pass `rule`; else the first problem, from
    /// `/` down. `includingFile` false checks the directories above only. A component that does
    /// not exist is left to the caller, which reports a missing file its own way.
    public static func problem(_ path: String, rule: FileModeRule, includingFile: Bool = true) -> String? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var candidates = [absolute]
        if let resolved = realpath(absolute, nil) {
            candidates.append(String(cString: resolved))
            free(resolved)
        }
        var checked = Set<String>()
        for candidate in candidates {
            for prefix in prefixes(candidate, includingLast: includingFile) where checked.insert(prefix).inserted {
                if let problem = problem(at: prefix, rule: rule) { return problem }
            }
        }
        return nil
    }

    /// The owner and mode of an open file (a descriptor read through `fstat`).
    public static func status(of fd: CInt) -> FileStatus? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return status(info)
    }

    static func status(_ info: stat) -> FileStatus {
        let type = info.st_mode & S_IFMT
        // Looked up only where it matters: a file or directory its group may write.
        let groupIsOwners = type != S_IFLNK && info.st_mode & 0o020 != 0 && isPrivateGroup(info.st_gid, of: info.st_uid)
        return FileStatus(
            uid: info.st_uid, permissions: info.st_mode, isDirectory: type == S_IFDIR, isSymbolicLink: type == S_IFLNK,
            groupIsOwners: groupIsOwners)
    }

    /// Whether `gid` is the primary group of `uid` and lists no member but that user.
    static func isPrivateGroup(_ gid: gid_t, of uid: uid_t) -> Bool {
        var size = 16 * 1024
        while size <= 1024 * 1024 {
            var buffer = [CChar](repeating: 0, count: size)
            let answer: Bool? = buffer.withUnsafeMutableBufferPointer { space in
                let half = space.count / 2
                var user = passwd()
                var group = group()
                var foundUser: UnsafeMutablePointer<passwd>?
                var foundGroup: UnsafeMutablePointer<group>?
                let userStatus = getpwuid_r(uid, &user, space.baseAddress!, half, &foundUser)
                let groupStatus = getgrgid_r(gid, &group, space.baseAddress! + half, half, &foundGroup)
                if userStatus == ERANGE || groupStatus == ERANGE { return nil }
                guard userStatus == 0, groupStatus == 0, foundUser != nil, foundGroup != nil, user.pw_gid == gid else { return false }
                var member = group.gr_mem
                while let entry = member?.pointee {
                    if strcmp(entry, user.pw_name) != 0 { return false }
                    member = member?.advanced(by: 1)
                }
                return true
            }
            if let answer { return answer }
            size *= 4
        }
        return false
    }

    /// A link is judged by its owner (who may remove it) and then by what it points to.
    private static func problem(at path: String, rule: FileModeRule) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let own = status(info)
        if let problem = rule.problem(own, path: path) { return problem }
        guard own.isSymbolicLink else { return nil }
        guard stat(path, &info) == 0 else { return nil }
        return rule.problem(status(info), path: path)
    }

    /// `/`, `/a`, `/a/b`, ... of an absolute path.
    private static func prefixes(_ path: String, includingLast: Bool) -> [String] {
        var components = path.split(separator: "/").map(String.init)
        if !includingLast, !components.isEmpty { components.removeLast() }
        var result = ["/"]
        var current = ""
        for component in components {
            current += "/" + component
            result.append(current)
        }
        return result
    }
}
