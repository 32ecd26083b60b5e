import Foundation
import Glibc

/// Real system users and groups made for the authorization test (it runs as root), and
/// widgetctl run as each of them. Creating them again is harmless (a run killed half-way
/// leaves them behind); `remove` deletes them and is called however the test ends.
final class AuthUsers {
    struct User {
        var name: String
        var uid: UInt32
        var gid: UInt32
    }

    static let hostGroup = "widgetd-test-hosts"
    static let teamGroup = "widgetd-test-team"
    static let ownerName = "widgetd-test-owner"
    static let hostName = "widgetd-test-host"
    static let otherName = "widgetd-test-other"

    /// Why the test cannot run here, or nil.
    static var unavailable: String? {
        if getuid() != 0 { return "creating test users needs root (running as uid \(getuid()))" }
        for tool in ["/usr/sbin/useradd", "/usr/sbin/groupadd", "/usr/sbin/userdel", "/usr/sbin/groupdel", "/usr/bin/setpriv"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing"
        }
        return nil
    }

    let owner: User
    let host: User
    let other: User
    /// widgetctl, copied where the test users can run it (the build folder may sit under a
    /// home directory they cannot enter).
    let widgetctl: String

    init(in directory: String) throws {
        for group in [Self.hostGroup, Self.teamGroup] {
            try Self.run("/usr/sbin/groupadd", ["-f", group])
        }
        owner = try Self.user(Self.ownerName, groups: [Self.teamGroup])
        host = try Self.user(Self.hostName, groups: [Self.hostGroup])
        other = try Self.user(Self.otherName, groups: [])
        widgetctl = directory + "/widgetctl"
        try? FileManager.default.removeItem(atPath: widgetctl)
        try FileManager.default.copyItem(atPath: TestPaths.widgetctl, toPath: widgetctl)
        chmod(widgetctl, 0o755)
    }

    /// The users for a test of `fixture`'s daemon, whose folder they must be able to enter (its
    /// socket and the copied widgetctl are there). Pair with `remove(after:)`.
    static func open(for fixture: DaemonFixture) throws -> AuthUsers {
        chmod(fixture.directory, 0o755)
        return try AuthUsers(in: fixture.directory)
    }

    /// Stops the daemon first (it may hold the users' connections), then deletes the users.
    func remove(after fixture: DaemonFixture) {
        fixture.stop()
        remove()
    }

    /// Deletes the users (and the groups useradd made for them) and the test groups.
    func remove() {
        for name in [Self.ownerName, Self.hostName, Self.otherName] {
            _ = try? Self.run("/usr/sbin/userdel", [name], allowFailure: true)
            _ = try? Self.run("/usr/sbin/groupdel", [name], allowFailure: true)
        }
        for group in [Self.hostGroup, Self.teamGroup] {
            _ = try? Self.run("/usr/sbin/groupdel", [group], allowFailure: true)
        }
    }

    static func exists(user name: String) -> Bool { getpwnam(name) != nil }
    static func exists(group name: String) -> Bool { getgrnam(name) != nil }

    /// Runs widgetctl as `user`, with that user's groups (`setpriv --init-groups`).
    func ctl(as user: User, _ arguments: [String], socket: String) -> (result: DaemonFixture.Result, pid: Int32) {
        var pid: Int32 = 0
        let result = ProgramRun.run(
            "/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--", widgetctl] + arguments,
            environment: ["WIDGETD_SOCKET": socket, "PATH": "/usr/bin:/bin", "HOME": "/"], inheritEnvironment: false, directory: "/",
            what: "widgetctl \(arguments.joined(separator: " ")) as \(user.name)", started: { pid = $0 })
        return (result, pid)
    }

    private static func user(_ name: String, groups: [String]) throws -> User {
        if getpwnam(name) == nil {
            var arguments = ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin"]
            if !groups.isEmpty { arguments += ["--groups", groups.joined(separator: ",")] }
            try run("/usr/sbin/useradd", arguments + [name])
        } else if !groups.isEmpty {
            try run("/usr/sbin/usermod", ["--append", "--groups", groups.joined(separator: ","), name])
        }
        guard let entry = getpwnam(name) else { throw FixtureError("user \(name) was not created") }
        return User(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String], allowFailure: Bool = false) throws -> Int32 {
        let result = ProgramRun.run(tool, arguments, deadline: 60)
        if result.status != 0, !allowFailure {
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr)")
        }
        return result.status
    }
}
