import Foundation
import Glibc

/// A real `dbus-daemon` of the test's own on a socket in a folder of the test's (never the
/// machine's buses), open to every user (`Policy`), so widgetd's own access decision is what
/// a test user meets. Driven with the clients
/// people use: `busctl` (systemd) and `gdbus` (libglib2.0-bin).
final class PrivateBus {
    static let daemon = "/usr/bin/dbus-daemon"
    static let busctl = "/usr/bin/busctl"
    static let gdbus = "/usr/bin/gdbus"
    static let name = "org.widgetd.WidgetCenter1"
    static let path = "/org/widgetd/WidgetCenter1"

    /// Why the tests cannot run here, or nil (scripts/setup installs them).
    static var unavailable: String? {
        for tool in [daemon, busctl, gdbus, "/usr/bin/stdbuf"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (scripts/setup installs dbus, libglib2.0-bin and systemd)"
        }
        return nil
    }

    let directory: String
    var socketPath: String { directory + "/bus" }
    var address: String { "unix:path=" + socketPath }
    var configPath: String { directory + "/bus.conf" }
    var logPath: String { directory + "/dbus-daemon.log" }
    /// What widgetd needs to find this bus (`--dbus` as `busKind` says).
    var environment: [String: String] { [policy == .system ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS": address] }
    var busKind: String { policy == .system ? "system" : "session" }
    private var process: ChildProcess?

    /// Who may do what on the bus.
    enum Policy {
        /// Every user may connect, call and own any name (a session bus open to the test users).
        case open
        /// As Debian's system bus (the default policy of /usr/share/dbus-1/system.conf): names are owned and methods called only as policy files
        /// allow, and the policy file widgetd ships is the one that does (`--dbus system`).
        case system
    }

    let policy: Policy

    init(in directory: String, policy: Policy = .open) throws {
        self.directory = directory
        self.policy = policy
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        let rules: String
        switch policy {
        case .open:
            rules = """
                  <type>session</type>
                  <policy context="default">
                    <allow user="*"/>
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                """
        case .system:
            rules = """
                  <type>system</type>
                  <policy context="default">
                    <allow user="*"/>
                    <deny own="*"/>
                    <deny send_type="method_call"/>
                    <allow send_type="signal"/>
                    <allow send_requested_reply="true" send_type="method_return"/>
                    <allow send_requested_reply="true" send_type="error"/>
                    <allow receive_type="method_call"/>
                    <allow receive_type="method_return"/>
                    <allow receive_type="error"/>
                    <allow receive_type="signal"/>
                    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
                  </policy>
                  <include>\(TestPaths.repository)/dbus/system.d/org.widgetd.WidgetCenter1.conf</include>
                """
        }
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
            \(rules)
            </busconfig>
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        process = nil  // kills a bus still running
    }

    /// Starts the bus and waits until it answers.
    func start() throws {
        try? FileManager.default.removeItem(atPath: socketPath)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process = try ChildProcess(Self.daemon, ["--config-file=" + configPath, "--nofork"], environment: environment, logPath: logPath)
        try Poll.until("dbus-daemon answering on \(socketPath)", within: 20) {
            busctl(["status", "org.freedesktop.DBus"]).status == 0
        }
    }

    /// SIGKILL, as a bus that crashes or is stopped under widgetd.
    func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit(within: 30)
        self.process = nil
    }

    /// Whether widgetd owns its name now.
    var widgetdOwnsName: Bool {
        busctl(["status", Self.name]).status == 0
    }

    /// `busctl --address=... ARGS`; with `user`, run as that test user.
    func busctl(_ arguments: [String], as user: AuthUsers.User? = nil) -> DaemonFixture.Result {
        run(Self.busctl, ["--address=" + address] + arguments, as: user)
    }

    /// `busctl call` of a WidgetCenter1 method.
    func call(_ method: String, _ signature: String = "", _ args: [String] = [], as user: AuthUsers.User? = nil) -> DaemonFixture.Result {
        busctl(["call", Self.name, Self.path, Self.name, method] + (signature.isEmpty ? [] : [signature] + args), as: user)
    }

    /// `gdbus COMMAND --address ... ARGS`.
    func gdbus(_ command: String, _ arguments: [String], as user: AuthUsers.User? = nil) -> DaemonFixture.Result {
        run(Self.gdbus, [command, "--address", address] + arguments, as: user)
    }

    /// `gdbus call` of a WidgetCenter1 method, args in GVariant text.
    func gdbusCall(_ method: String, _ args: [String] = [], as user: AuthUsers.User? = nil) -> DaemonFixture.Result {
        gdbus("call", ["--dest", Self.name, "--object-path", Self.path, "--method", Self.name + "." + method] + args, as: user)
    }

    /// `gdbus monitor` of widgetd's name until stopped, its output in `output`, line-buffered.
    /// Ready once `output` says it monitors.
    func monitor(output: String) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", Self.gdbus, "monitor", "--address", address, "--dest", Self.name],
            environment: ProcessInfo.processInfo.environment, logPath: output)
    }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    private func run(_ tool: String, _ arguments: [String], as user: AuthUsers.User?) -> DaemonFixture.Result {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": "/"]
        guard let user else { return CommandRun.run(tool, arguments, environment: environment, deadline: 60) }
        return CommandRun.run(
            "/usr/bin/setpriv", ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--init-groups", "--", tool] + arguments,
            environment: environment, deadline: 60)
    }
}
