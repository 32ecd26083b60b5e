import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// A socket widgetd binds itself gets the host group and mode 0660, a
    /// refused widgetctl says whose socket it is and which group to join, and a user with no
    /// daemon of their own reaches the system socket without being told where it is.
    /// widgetctl runs as `nobody`, with and without a temporary host group. Root only.
    @Suite struct SocketAccess {
        /// The daemon (root) with a fresh host group, and widgetctl copied where `nobody` can run it.
        private static func start() throws -> (DaemonFixture, TemporaryGroup, widgetctl: String) {
            let fixture = try DaemonFixture()
            // `nobody` must get through the fixture's folder to the socket and the copy of widgetctl.
            chmod(fixture.directory, 0o755)
            let group = try TemporaryGroup(prefix: "wdt-hosts")
            let config = fixture.directory + "/widgetd.conf"
            try "[access]\nhost-group = \(group.name)\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(arguments: ["--config", config])
            let widgetctl = fixture.directory + "/widgetctl"
            try FileManager.default.copyItem(atPath: TestPaths.widgetctl, toPath: widgetctl)
            chmod(widgetctl, 0o755)
            return (fixture, group, widgetctl)
        }

        /// widgetctl as `nobody`, in `group` or in none, with exactly `environment`.
        private static func asNobody(
            _ widgetctl: String, _ arguments: [String], group: UInt32?, environment: [String: String] = [:]
        ) -> DaemonFixture.Result {
            let groups = group.map { "--groups=\($0)" } ?? "--clear-groups"
            return CommandRun.run(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", groups, "--", widgetctl] + arguments,
                environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        }

        @Test(.needs(TemporaryGroup.unavailable))
        func theHostGroupReachesTheSocketAndOthersAreToldWhichGroupToJoin() throws {
            let (fixture, group, widgetctl) = try Self.start()
            defer {
                fixture.stop()
                group.remove()
                #expect(!TemporaryGroup.exists(group.name))
            }
            var info = stat()
            #expect(stat(fixture.socketPath, &info) == 0)
            #expect(info.st_gid == group.gid, "the socket's group")
            #expect(info.st_mode & 0o7777 == 0o660, "the socket's mode: \(String(info.st_mode & 0o7777, radix: 8))")

            let socket = ["WIDGETD_SOCKET": fixture.socketPath]
            let refused = Self.asNobody(widgetctl, ["status"], group: nil, environment: socket)
            #expect(refused.status == 3)
            #expect(
                refused.stderr == "widgetctl: permission denied on \(fixture.socketPath) (owner root, group \(group.name), mode 0660): "
                    + "join group \(group.name) (sudo usermod -aG \(group.name) $USER, then log in again)\n")

            let member = Self.asNobody(widgetctl, ["--json", "status"], group: group.gid, environment: socket)
            #expect(member.status == 0, "\(member.stderr)")
            #expect(member.object["stateDirectory"] as? String == fixture.stateDirectory)
            // A member of the host group manages, too.
            #expect(Self.asNobody(widgetctl, ["add", "test.pushed", "--family", "systemSmall"], group: group.gid, environment: socket).status == 0)
        }

        static var noPrivateMounts: String? {
            if let reason = TemporaryGroup.unavailable { return reason }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return "/usr/bin/unshare is missing" }
            let probe = CommandRun.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/true"], environment: [:], deadline: 60)
            return probe.status == 0 ? nil : "no private mount namespace here: \(probe.stderr)"
        }

        /// The system socket is a fixed path, and another daemon may hold it: widgetctl runs in
        /// a mount namespace of its own whose /run holds only a link to the test's socket.
        @Test(.needs(noPrivateMounts))
        func aUserWithoutADaemonReachesTheSystemSocket() throws {
            let (fixture, group, widgetctl) = try Self.start()
            defer {
                fixture.stop()
                group.remove()
            }
            let emptyRuntime = fixture.directory + "/runtime"
            try FileManager.default.createDirectory(atPath: emptyRuntime, withIntermediateDirectories: true)
            func ctl(_ arguments: [String], environment: [String: String], systemDaemon: Bool = true) -> DaemonFixture.Result {
                let script = """
                    set -e
                    mount -t tmpfs tmpfs /run
                    mkdir /run/widgetd
                    \(systemDaemon ? "ln -s \(fixture.socketPath) /run/widgetd/widgetd.sock" : "")
                    exec "$@"
                    """
                let command = ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", "/usr/bin/setpriv",
                    "--reuid=nobody", "--regid=nogroup", "--groups=\(group.gid)", "--", widgetctl] + arguments
                return CommandRun.run("/usr/bin/unshare", command, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
            }

            // No XDG_RUNTIME_DIR, or no socket in it: the system socket.
            for environment in [[:], ["XDG_RUNTIME_DIR": emptyRuntime]] {
                let status = ctl(["--json", "status"], environment: environment)
                #expect(status.status == 0, "\(environment): \(status.stderr)")
                #expect(status.object["stateDirectory"] as? String == fixture.stateDirectory, "\(environment)")
            }
            // No daemon anywhere: both places are named.
            let nowhere = ctl(["status"], environment: ["XDG_RUNTIME_DIR": emptyRuntime], systemDaemon: false)
            #expect(nowhere.status == 3)
            #expect(
                nowhere.stderr == "widgetctl: cannot reach widgetd at \(emptyRuntime)/widgetd/widgetd.sock or /run/widgetd/widgetd.sock: "
                    + "no such socket (is widgetd running?)\n")
            // WIDGETD_SOCKET and --socket still win.
            let elsewhere = fixture.directory + "/elsewhere.sock"
            let explicit = ctl(["status"], environment: ["WIDGETD_SOCKET": elsewhere])
            #expect(explicit.status == 3)
            #expect(explicit.stderr.hasPrefix("widgetctl: cannot reach widgetd at \(elsewhere):"), "\(explicit.stderr)")
            let option = ctl(["status", "--socket", elsewhere], environment: [:])
            #expect(option.status == 3)
            #expect(option.stderr.hasPrefix("widgetctl: cannot reach widgetd at \(elsewhere):"), "\(option.stderr)")
        }

        @Test func aClientTriesItsOwnDaemonThenTheSystemOne() {
            let system = "/run/widgetd/widgetd.sock"
            #expect(SocketLocation.candidates(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
                == ["/run/user/1000/widgetd/widgetd.sock", system])
            #expect(SocketLocation.candidates(environment: [:], uid: 1000) == ["/tmp/widgetd-1000/widgetd.sock", system])
            #expect(SocketLocation.candidates(environment: ["XDG_RUNTIME_DIR": "/run/user/0"], uid: 0) == [system])
            #expect(SocketLocation.candidates(environment: ["WIDGETD_SOCKET": "/x.sock", "XDG_RUNTIME_DIR": "/r"], uid: 1000) == ["/x.sock"])
            // The daemon binds its own default, never the system's, when not root.
            #expect(SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/r"], uid: 1000) == "/r/widgetd/widgetd.sock")
            let candidates = ["/a.sock", system]
            #expect(SocketLocation.firstPresent(candidates) { $0 == system } == system)
            #expect(SocketLocation.firstPresent(candidates) { _ in true } == "/a.sock")
            #expect(SocketLocation.firstPresent(candidates) { _ in false } == nil)
        }
    }
}
