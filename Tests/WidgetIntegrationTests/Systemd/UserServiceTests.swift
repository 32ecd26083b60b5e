import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// `widgetd --user-service` as a `systemd --user` unit runs it: as an unprivileged user,
    /// socket-activated (`systemd-socket-activate` stands for the user manager), with
    /// `XDG_RUNTIME_DIR`, `XDG_STATE_HOME` and `XDG_CONFIG_HOME` of its own.
    @Suite struct UserService {
        /// The user's widgets directory is made and read besides the system one; the user
        /// manages everything, a kind another account owns included; widgetctl finds the
        /// user's socket by itself; another account is refused at the socket even when the
        /// file lets it connect, the kind's owner included.
        @Test(.needs(AuthUsers.unavailable))
        func oneUsersDaemonReadsTheirWidgetsAndLetsNobodyElseIn() throws {
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            let me = users.other
            let stranger = users.owner

            let home = fixture.directory + "/home"
            let runtime = fixture.directory + "/run"
            let config = home + "/.config"
            let state = home + "/.local/state"
            for folder in [home, runtime, runtime + "/widgetd", config, state] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                chown(folder, me.uid, me.gid)
            }
            chmod(runtime, 0o700)
            // The providers' log, which they write as the user.
            _ = FileManager.default.createFile(atPath: fixture.launchLog, contents: nil)
            chown(fixture.launchLog, me.uid, me.gid)
            // A system kind another account owns.
            try fixture.counterWidget("user.system-owned")
            try rewriteOwner(fixture.widgetsDirectory + "/user.system-owned.json", owner: AuthUsers.ownerName)

            let socket = runtime + "/widgetd/widgetd.sock"
            let environment = ["XDG_RUNTIME_DIR=\(runtime)", "XDG_STATE_HOME=\(state)", "XDG_CONFIG_HOME=\(config)", "HOME=\(home)"]
            let activator = try fixture.launch("/usr/bin/setpriv", [
                "--reuid=\(me.uid)", "--regid=\(me.gid)", "--init-groups", "--",
                "/usr/bin/systemd-socket-activate", "-l", socket, "--fdname=control",
            ] + environment.flatMap { ["-E", $0] } + [
                TestPaths.widgetd, "--user-service", "--widgets-dir", fixture.widgetsDirectory,
                "--clock", "virtual:" + DaemonFixture.virtualStart, "--log-target", "stderr",
            ])
            defer {
                if activator.isRunning {
                    kill(activator.processIdentifier, SIGTERM)
                    activator.waitUntilExit()
                }
            }
            try Poll.until("systemd-socket-activate listening on \(socket)") { FileManager.default.fileExists(atPath: socket) }

            // widgetctl run by the user, told nothing but the user's environment.
            func ctl(_ user: AuthUsers.User, _ arguments: [String]) -> DaemonFixture.Result {
                run(users.widgetctl, as: user, arguments, environment: ["XDG_RUNTIME_DIR": runtime, "HOME": home])
            }
            let ping = ctl(me, ["--json", "ping"])
            #expect(ping.status == 0, "\(ping.stderr)")

            // The state and the user's widgets directory are the XDG ones.
            let userWidgets = config + "/widgetd/widgets.d"
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: userWidgets, isDirectory: &isFolder) && isFolder.boolValue)
            #expect(FileManager.default.fileExists(atPath: state + "/widgetd"))

            // A descriptor the user drops in is picked up without a reload.
            let descriptor: [String: Any] = [
                "kind": "user.mine", "displayName": "mine", "supportedFamilies": ["systemSmall"],
                "provider": ["exec": [fixture.widgetsDirectory + "/counter", fixture.launchLog]],
            ]
            let dropped = try JSONSerialization.data(withJSONObject: descriptor, options: [.sortedKeys])
            try dropped.write(to: URL(fileURLWithPath: userWidgets + "/user.mine.json"))
            chown(userWidgets + "/user.mine.json", me.uid, me.gid)
            try Poll.until("user.mine from the user's widgets directory in 'widgetctl widgets'") {
                ctl(me, ["widgets"]).stdout.contains("user.mine")
            }
            let mine = ctl(me, ["add", "user.mine", "--family", "systemSmall"])
            #expect(mine.status == 0, "\(mine.stderr)")

            // A kind another account owns: the user adds and reloads it all the same.
            let added = ctl(me, ["add", "user.system-owned", "--family", "systemSmall"])
            #expect(added.status == 0, "\(added.stderr)")
            let reloaded = ctl(me, ["reload", "user.system-owned"])
            #expect(reloaded.status == 0, "\(reloaded.stderr)")

            // Another account, even the kind's owner and with the socket file opened to it, is
            // refused before anything is read: not even a read goes through.
            chmod(runtime, 0o755)
            chmod(runtime + "/widgetd", 0o755)
            chmod(socket, 0o666)
            for arguments in [["ping"], ["list"], ["reload", "user.system-owned"]] {
                let refused = ctl(stranger, arguments)
                #expect(refused.status != 0, "\(arguments) as \(stranger.name): \(refused.stdout)")
                #expect(refused.stderr.contains("permission denied"), "\(refused.stderr)")
            }
            // Root still gets in, as into any user's socket.
            let root = fixture.ctl(["--json", "list"], socket: socket)
            #expect(root.status == 0, "\(root.stderr)")
            #expect(root.stdout.contains("user.mine") && root.stdout.contains("user.system-owned"))
        }

        /// Started by hand (no socket passed in), it binds the socket 0600.
        @Test func aSocketItBindsIsTheUsersAlone() throws {
            let fixture = try DaemonFixture()
            let runtime = fixture.directory + "/run"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let daemon = try fixture.launch(TestPaths.widgetd, [
                "--user-service", "--widgets-dir", fixture.widgetsDirectory, "--clock", "virtual:" + DaemonFixture.virtualStart,
                "--log-target", "stderr",
            ], environment: [
                "XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": fixture.directory + "/state",
                "XDG_CONFIG_HOME": fixture.directory + "/config", "WIDGETD_SOCKET": "",
            ])
            defer {
                kill(daemon.processIdentifier, SIGTERM)
                daemon.waitUntilExit()
            }
            let socket = runtime + "/widgetd/widgetd.sock"
            try Poll.until("widgetd answering on \(socket)") { fixture.ctl(["ping"], socket: socket).status == 0 }
            var info = stat()
            #expect(stat(socket, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
            #expect(FileManager.default.fileExists(atPath: fixture.directory + "/state/widgetd"))
            #expect(FileManager.default.fileExists(atPath: fixture.directory + "/config/widgetd/widgets.d"))
        }
    }
}

private func rewriteOwner(_ path: String, owner: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw FixtureError("\(path) is not a JSON object")
    }
    object["owner"] = ["user": owner]
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
}

/// widgetctl as `user` (`setpriv`), with only `environment`, PATH and no WIDGETD_SOCKET: it
/// finds its socket as a user's session would.
private func run(_ widgetctl: String, as user: AuthUsers.User, _ arguments: [String], environment: [String: String]) -> DaemonFixture.Result {
    CommandRun.run(
        "/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--", widgetctl] + arguments,
        environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
}
