import Glibc
import WidgetCore

/// Provider programs looked for as the daemon's launch finds them (`posix_spawnp`): a path
/// with a slash as written, a bare name in the directories of PATH.
public struct SystemPrograms: ProgramDirectory {
    /// The directories a bare name is looked up in, separated by ':'.
    public var searchPath: String

    /// `searchPath` nil: this process's PATH, or glibc's default when PATH is unset.
    public init(searchPath: String? = nil) {
        self.searchPath = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/bin:/usr/bin"
    }

    public func problem(running program: String) -> String? {
        if program.contains("/") { return Self.problem(atPath: program) }
        let directories = searchPath.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        for directory in directories where Self.problem(atPath: directory + "/" + program) == nil {
            return nil
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
