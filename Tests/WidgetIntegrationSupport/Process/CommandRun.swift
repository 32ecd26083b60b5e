import Foundation
import Glibc

/// A short-lived program run to its end in a clean environment (only `environment`) from `/`,
/// as another user's would be (widgetctl under `setpriv` or `unshare`, `groupadd`).
enum CommandRun {
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], deadline: Double = DaemonFixture.ctlDeadline
    ) -> DaemonFixture.Result {
        ProgramRun.run(executable, arguments, environment: environment, inheritEnvironment: false, directory: "/", deadline: deadline)
    }
}

/// A system group made for one test (a unique name, so runs and worktrees never share one),
/// removed by `remove()`, which the test calls however it ends.
final class TemporaryGroup {
    let name: String
    let gid: UInt32

    /// Why a test cannot make one here, or nil.
    static var unavailable: String? {
        if getuid() != 0 { return "creating a group needs root (running as uid \(getuid()))" }
        for tool in ["/usr/sbin/groupadd", "/usr/sbin/groupdel", "/usr/bin/setpriv"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing"
        }
        return nil
    }

    init(prefix: String) throws {
        name = "\(prefix)-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        let made = CommandRun.run("/usr/sbin/groupadd", ["--system", name], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], deadline: 60)
        guard made.status == 0, let entry = getgrnam(name) else {
            throw FixtureError("groupadd --system \(name): exit \(made.status): \(made.stderr)")
        }
        gid = entry.pointee.gr_gid
    }

    func remove() {
        _ = CommandRun.run("/usr/sbin/groupdel", [name], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], deadline: 60)
    }

    static func exists(_ name: String) -> Bool { getgrnam(name) != nil }
}
