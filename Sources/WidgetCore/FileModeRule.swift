/// The owner and permission bits of one file or directory, as stat(2) gives them.
public struct FileStatus: Sendable, Hashable {
    public var uid: UInt32
    /// The permission bits with set-id and sticky (`st_mode & 07777`).
    public var permissions: UInt32
    public var isDirectory: Bool
    /// A symbolic link itself (lstat): only its owner counts, as its target cannot be changed.
    public var isSymbolicLink: Bool
    /// The file's group is its owner's own (a user private group, as `useradd` makes them)
    /// with no other member: group write then gives no one else a way in.
    public var groupIsOwners: Bool

    public init(
        uid: UInt32, permissions: UInt32, isDirectory: Bool = false, isSymbolicLink: Bool = false, groupIsOwners: Bool = false
    ) {
        self.uid = uid
        self.permissions = permissions & 0o7777
        self.isDirectory = isDirectory
        self.isSymbolicLink = isSymbolicLink
        self.groupIsOwners = groupIsOwners
    }
}

/// Who may write what widgetd reads as code or configuration: a descriptor, a provider
/// program, a widgets directory, and every directory above them. The daemon runs providers
/// as its own user (root, as a system service), so a file another user can change is code
/// that user runs as root. As sshd's `StrictModes`: a file or directory is refused when it is
/// owned by anyone but root, the daemon's user or the kind's owner, or is writable by its
/// group or by others. Two exceptions: a directory with the sticky bit (`/tmp`), where others
/// may add entries but not replace what is in it, needs only a trusted owner; and group write
/// counts for nothing when the group is the owner's private group with no other member.
public struct FileModeRule: Sendable, Hashable {
    /// The daemon's own user (root for the system service).
    public var daemonUID: UInt32
    /// The user a kind's descriptor names as its owner, when it names a user.
    public var ownerUID: UInt32?

    public init(daemonUID: UInt32, owner: KindOwner? = nil) {
        self.daemonUID = daemonUID
        if case .user(_, let uid)? = owner { ownerUID = uid }
    }

    /// Whether `uid` may own the files.
    public func trusts(_ uid: UInt32) -> Bool {
        uid == 0 || uid == daemonUID || uid == ownerUID
    }

    /// nil when `status` passes; else why not, naming `path` and what to do.
    public func problem(_ status: FileStatus, path: String) -> String? {
        guard trusts(status.uid) else {
            return "\(path) is owned by uid \(status.uid), not by \(owners): that user could change what widgetd runs (chown it)"
        }
        if status.isSymbolicLink { return nil }
        // As Debian's sshd: under umask 002 a user's files are group-writable by their own group.
        let writable = status.permissions & (status.groupIsOwners ? 0o002 : 0o022)
        guard writable != 0, !(status.isDirectory && status.permissions & 0o1000 != 0) else { return nil }
        let who = writable == 0o022 ? "its group and others" : writable == 0o020 ? "its group" : "others"
        let mode = String(status.permissions, radix: 8)
        return "\(path) is writable by \(who) (mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode)): "
            + "only \(owners) may write what widgetd runs (chmod go-w)"
    }

    private var owners: String {
        var names = ["root"]
        if daemonUID != 0 { names.append("the daemon's user (uid \(daemonUID))") }
        if let ownerUID, ownerUID != 0, ownerUID != daemonUID { names.append("the kind's owner (uid \(ownerUID))") }
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
