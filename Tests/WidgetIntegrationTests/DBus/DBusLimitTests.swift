import Foundation
import Glibc
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// A uid's D-Bus calls waiting for their answers are bounded (`max-dbus-calls-per-uid`): past
    /// the bound a call is refused at once, the calls already taken are answered, and a freed
    /// place is taken again.
    @Suite struct DBusLimit {
        @Test(.needs(PrivateBus.unavailable))
        func aCallPastTheUIDsWaitingCallsIsRefusedAndTheOthersAreAnswered() throws {
            let fixture = try DaemonFixture()
            let dir = fixture.directory
            // `perform` waits for `release`, so the first call stays waiting as long as the test likes.
            try fixture.provider("slow", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                case "$1" in
                timeline)
                    printf '{"entries":[{"date":"%s","content":{},"actions":[{"id":"go","title":"Go","intent":{"type":"Go","parameters":{}}}]}],"policy":"never"}\\n' "$now" ;;
                perform)
                    touch "\(dir)/performing"
                    while [ ! -e "\(dir)/release" ]; do sleep 0.02; done
                    printf '{"dialog":"went"}\\n' ;;
                *) exit 2 ;;
                esac
                """)
            let descriptor: [String: Any] = [
                "kind": "test.slow", "displayName": "Slow", "supportedFamilies": ["systemSmall"],
                "provider": ["exec": ["./slow"]], "actions": [["type": "Go", "parameters": []]],
            ]
            try JSONSerialization.data(withJSONObject: descriptor).write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/test.slow.json"))
            let config = dir + "/widgetd.conf"
            try "[limits]\nmax-dbus-calls-per-uid = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
            let bus = try PrivateBus.withWidgetd(fixture, arguments: ["--config", config])
            let id = try fixture.add("test.slow")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)

            let first = try ChildProcess(
                PrivateBus.gdbus,
                ["call", "--address", bus.address, "--dest", PrivateBus.name, "--object-path", PrivateBus.path,
                 "--method", PrivateBus.name + ".Perform", id, "go"],
                environment: ["PATH": "/usr/bin:/bin", "HOME": "/"], logPath: dir + "/first-call")
            try Poll.until("the provider performing the first call's action", within: 30) {
                FileManager.default.fileExists(atPath: dir + "/performing")
            }

            // The same uid (root here), another connection: refused at once, naming the key.
            let refused = bus.gdbusCall("GetCurrentConfigurations")
            #expect(refused.status != 0)
            #expect(
                refused.stderr.contains(
                    "org.widgetd.WidgetCenter1.Error.LimitExceeded: limit exceeded: 1 D-Bus calls of uid 0 waiting for their answers (max-dbus-calls-per-uid in [limits] of widgetd.conf)"),
                "\(refused.stderr)")
            // The socket is not a D-Bus call: served as ever.
            #expect(fixture.ctl("status").status == 0)

            try "".write(toFile: dir + "/release", atomically: true, encoding: .utf8)
            first.waitUntilExit(within: 60)
            let answer = (try? String(contentsOfFile: dir + "/first-call", encoding: .utf8)) ?? ""
            #expect(first.terminationStatus == 0 && answer.contains("'dialog': <'went'>"), "\(answer)")

            // Its place is free again.
            let again = bus.gdbusCall("GetCurrentConfigurations")
            #expect(again.status == 0 && again.stdout.contains(id), "\(again.stderr)")
        }
    }
}
