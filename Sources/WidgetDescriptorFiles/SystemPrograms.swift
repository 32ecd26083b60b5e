import Glibc
import WidgetCore

/// Provider programs looked for as the daemon's launch finds them (`posix_spawnp`): a path
/// with a slash as written, a bare name in the directories of PATH. The program found must
/// also pass `FileModeRule`: the daemon runs it as its own user.
public struct SystemPrograms: ProgramDirectory {
    /// The directories a bare name is looked up in, separated by ':'.
    public var searchPath: String
    /// The user the programs run as (the daemon's; for `widgets check`, the caller's).
    public var daemonUID: UInt32

    /// `searchPath` nil: this process's PATH, or glibc's default when PATH is unset.
    public init(searchPath: String? = nil, daemonUID: UInt32 = geteuid()) {
        self.searchPath = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/bin:/usr/bin"
        self.daemonUID = daemonUID
    }

    public func problem(running program: String) -> String? {
        problem(running: program, owner: nil)
    }

    public func problem(running program: String, owner: KindOwner?) -> String? {
        let rule = FileModeRule(daemonUID: daemonUID, owner: owner)
        // By byte: Foundation's `contains` of a string goes through `NSString`, on every launch.
        if program.utf8.contains(UInt8(ascii: "/")) { return Self.problem(atPath: program) ?? FileTrust.problem(program, rule: rule) }
        let directories = searchPath.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        for directory in directories where Self.problem(atPath: directory + "/" + program) == nil {
            // The one posix_spawnp would run.
            return FileTrust.problem(directory + "/" + program, rule: rule)
        }
        return "'\(program)' is not an executable file in any directory of PATH (\(searchPath))"
    }

    /// nil for a regular file this process may execute.
    static func problem(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            return code == ENOENT ? "\(path) does not exist" : "\(path): \(String(cString: strerror(code)))"
        }
        if status.st_mode & S_IFMT == S_IFDIR { return "\(path) is a directory" }
        guard access(path, X_OK) == 0 else { return "\(path) is not executable (chmod +x?)" }
        return nil
    }
}
