import Foundation
import Testing

/// A small file system mounted for a storage-fault test: a tmpfs of a few hundred KiB that
/// can be filled, or remounted read-only. Root only (tests name `.needs(StorageMount.unavailable)`).
/// `unmount()` is idempotent and falls back to a lazy unmount, so a failing test never
/// leaves a mount behind.
final class StorageMount {
    let path: String
    private var mounted = false

    /// Why mounting is not possible here (it needs root), or nil.
    static var unavailable: String? { getuid() == 0 ? nil : "needs root to mount a tmpfs (storage-fault tests)" }

    /// Mounts a tmpfs of `size` (mount(8) syntax: "512k") on `path`, created if needed.
    init(tmpfsAt path: String, size: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        mounted = true
    }

    /// Bind-mounts `path` onto itself read-only (root ignores permission bits; a read-only
    /// mount refuses even root, with EROFS).
    init(readOnlyBindAt path: String) throws {
        self.path = path
        try Self.mount(["--bind", path, path])
        mounted = true
        try Self.mount(["-o", "remount,bind,ro", path])
    }

    deinit { unmount() }

    /// Gives the file system a new size (mount(8) syntax), as an operator making room would.
    func resize(to size: String) throws {
        try Self.mount(["-o", "remount,size=\(size)", path])
    }

    func remount(readOnly: Bool) throws {
        try Self.mount(["-o", "remount,\(readOnly ? "ro" : "rw")", path])
    }

    func unmount() {
        guard mounted else { return }
        mounted = false
        if (try? Self.run("/bin/umount", [path])) == nil { _ = try? Self.run("/bin/umount", ["-l", path]) }
    }

    /// Writes a file named `name` until the file system is full (down to the last byte);
    /// returns how many bytes it took.
    @discardableResult
    func fill(_ name: String = "filler") -> Int {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var total = 0
        for chunk in [65536, 4096, 512, 1] {
            let bytes = [UInt8](repeating: 0x5a, count: chunk)
            while true {
                let written = write(fd, bytes, chunk)
                guard written > 0 else { break }
                total += written
            }
        }
        return total
    }

    /// Frees what `fill` took.
    func free(_ name: String = "filler") {
        unlink(path + "/" + name)
    }

    private static func mount(_ arguments: [String]) throws {
        try run("/bin/mount", arguments)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let result = ProgramRun.run(executable, arguments, deadline: 60)
        guard result.status == 0 else {
            throw FixtureError("\(executable) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}
