import Foundation
import Glibc

/// The inotify watches that cover the widgets directories: each directory that exists, and
/// for one that does not (yet), its nearest existing ancestor, to see the missing part
/// appear. `arm` recomputes them after a folder came or went.
struct WidgetsDirectoryWatches {
    /// Changes to descriptor files: created, written and closed, renamed in or out, deleted,
    /// permissions; and the folder itself deleted or moved away.
    static let directoryMask = UInt32(
        IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ONLYDIR)
    /// An ancestor of a missing directory: the next folder on the way being created or renamed in.
    static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// What a watch is for.
    struct Role: Hashable {
        /// A widgets directory (its own path).
        var directory: String?
        /// Names whose creation in the watched folder brings a missing directory closer.
        var awaited: Set<String> = []
    }

    let fd: CInt
    let directories: [String]
    private(set) var roles: [CInt: Role] = [:]

    init(fd: CInt, directories: [String]) {
        self.fd = fd
        self.directories = directories.map { ($0 as NSString).standardizingPath }
    }

    /// Watches what should be watched now and drops the watches no longer needed. Returns
    /// whether a widgets directory is watched that was not before (it appeared, perhaps full
    /// of descriptors).
    mutating func arm() -> Bool {
        var wanted: [String: (mask: UInt32, role: Role)] = [:]
        for directory in directories {
            if Self.isDirectory(directory) {
                wanted[directory, default: (0, Role())].mask |= Self.directoryMask
                wanted[directory, default: (0, Role())].role.directory = directory
                continue
            }
            var missing = directory
            var parent = (missing as NSString).deletingLastPathComponent
            while !Self.isDirectory(parent), parent != missing {
                missing = parent
                parent = (missing as NSString).deletingLastPathComponent
            }
            guard parent != missing else { continue }
            wanted[parent, default: (0, Role())].mask |= Self.ancestorMask
            wanted[parent, default: (0, Role())].role.awaited.insert((missing as NSString).lastPathComponent)
        }
        var armed: [CInt: Role] = [:]
        for (path, watch) in wanted {
            // A folder deleted since it was looked at: the next event on its parent re-arms.
            let descriptor = inotify_add_watch(fd, path, watch.mask)
            guard descriptor >= 0 else { continue }
            var role = armed[descriptor] ?? Role()
            if let directory = watch.role.directory { role.directory = directory }
            role.awaited.formUnion(watch.role.awaited)
            armed[descriptor] = role
        }
        for descriptor in roles.keys where armed[descriptor] == nil {
            inotify_rm_watch(fd, descriptor)
        }
        let before = Set(roles.values.compactMap(\.directory))
        roles = armed
        return !Set(armed.values.compactMap(\.directory)).isSubset(of: before)
    }

    /// Whether `event` may change what the directories declare, and whether the watches must
    /// be armed again (a folder on the way came or went).
    func assess(_ event: InotifyEvent) -> (relevant: Bool, rearm: Bool) {
        if event.has(IN_Q_OVERFLOW) { return (true, true) }
        let selfGone = event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED)
        guard let role = roles[event.watch] else { return (false, selfGone) }
        var relevant = false
        var rearm = selfGone
        if role.directory != nil {
            relevant = selfGone || (event.name.map { Self.isDescriptorEvent($0, event, in: role.directory!) } ?? false)
        }
        if let name = event.name, role.awaited.contains(name) { rearm = true }
        return (relevant, rearm)
    }

    /// A change to a `*.json` file. A new file that is still empty is left to the close of
    /// its writer (IN_CLOSE_WRITE), so a half-written descriptor is not read; a link or a
    /// file renamed in is complete at once.
    private static func isDescriptorEvent(_ name: String, _ event: InotifyEvent, in directory: String) -> Bool {
        guard name.hasSuffix(".json") else { return false }
        guard event.has(IN_CREATE) else { return true }
        var info = stat()
        guard lstat(directory + "/" + name, &info) == 0 else { return true }
        return !((info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
