import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// A D-Bus caller is who the bus says it is, and meets the socket's access policy: real test
    /// users call through `gdbus` and `busctl` run as them.
    @Suite struct DBusAccess {
        @Test(.needs(PrivateBus.unavailable ?? AuthUsers.unavailable))
        func aRefusedCallerGetsTheSocketsErrorAndAHostIsLetIn() throws {
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            let config = fixture.directory + "/widgetd.conf"
            try "[access]\nhost-group = \(AuthUsers.hostGroup)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let bus = try PrivateBus.withWidgetd(fixture, arguments: ["--config", config])
            chmod(fixture.socketPath, 0o666)
            let random = try fixture.add("com.example.random-number")

            // Someone else: neither the kind's owner nor in the host group.
            let refused = bus.gdbusCall("ReloadTimelines", ["['com.example.random-number']", "true"], as: users.other)
            #expect(refused.status != 0)
            let prefix = "GDBus.Error:org.widgetd.WidgetCenter1.Error.PermissionDenied: "
            #expect(refused.stderr.contains(prefix + "permission denied: uid \(users.other.uid) may not call 'reloadTimelines'"), "\(refused.stderr)")
            // Word for word what the socket says to the same user.
            let message = refused.stderr.components(separatedBy: prefix).last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            let (socket, _) = users.ctl(as: users.other, ["reload", "com.example.random-number", "--user-initiated"], socket: fixture.socketPath)
            #expect(socket.status == 1 && socket.stderr.contains(message), "socket: \(socket.stderr) bus: \(message)")
            let busctl = bus.call("ReloadInstances", "asb", ["1", random, "true"], as: users.other)
            #expect(busctl.status != 0 && busctl.stderr.contains("permission denied: uid \(users.other.uid) may not call"), "\(busctl.stderr)")

            // A member of the host group (a group of the account's, which the bus does not report).
            let host = bus.call("ReloadTimelines", "asb", ["1", "com.example.random-number", "true"], as: users.host)
            #expect(host.status == 0 && host.stdout == "as 1 \"\(random)\"\n", "\(host.stderr)\(host.stdout)")
            // Reads are open to anyone.
            #expect(bus.call("GetCurrentConfigurations", as: users.other).status == 0)
        }

        /// On a bus with Debian's system policy and the policy file widgetd ships
        /// (dbus/system.d), widgetd (`--dbus system`, root here) owns the name, any user may call
        /// the interface, and what a caller may do is widgetd's decision, not the bus's.
        @Test(.needs(PrivateBus.unavailable ?? AuthUsers.unavailable))
        func theShippedPolicyLetsAnyoneCallAndWidgetdDecide() throws {
            let fixture = try DaemonFixture()
            let users = try AuthUsers.open(for: fixture)
            defer { users.remove(after: fixture) }
            let bus = try PrivateBus.withWidgetd(fixture, policy: .system)
            let random = try fixture.add("com.example.random-number")
            let read = bus.call("GetCurrentConfigurations", as: users.other)
            #expect(read.status == 0 && read.stdout.contains(random), "\(read.stderr)")
            let version = bus.busctl(["get-property", PrivateBus.name, PrivateBus.path, PrivateBus.name, "Protocol"], as: users.other)
            #expect(version.stdout == "u 1\n", "\(version.stderr)")
            let refused = bus.gdbusCall("ReloadAllTimelines", ["true"], as: users.other)
            #expect(refused.stderr.contains("org.widgetd.WidgetCenter1.Error.PermissionDenied"), "\(refused.stderr)")
            // The bus's own policy still holds for everything else.
            let other = bus.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName", "su", PrivateBus.name, "0"], as: users.other)
            #expect(other.status != 0, "a test user took widgetd's name: \(other.stdout)")
        }
    }
}
