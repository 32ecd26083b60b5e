import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// scripts/bar-check: the real Waybar in a headless sway session shows the widgetd modules.
    /// Runs where scripts/setup --bars installed them (scripts/test asks for that) and as root
    /// (sway runs as a system user the check makes).
    @Suite struct BarCheck {
        static var unavailable: String? {
            if geteuid() != 0 { return "needs root (sway runs as a system user the check makes)" }
            let missing = ["sway", "waybar", "grim"].filter { !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
            return missing.isEmpty ? nil : "needs \(missing.joined(separator: ", ")) (scripts/setup --bars)"
        }

        @Test(.needs(unavailable))
        func waybarShowsTheWidgetdModules() throws {
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let png = directory + "/waybar.png"
            let log = directory + "/bar-check.log"
            var environment = ProcessInfo.processInfo.environment
            environment["WIDGETD_BIN_DIR"] = TestPaths.binDirectory
            // A ChildProcess, not Foundation's Process: its signal mask is reset, so the
            // script's SIGTERM reaches sway and Waybar when it stops them.
            let check = try ChildProcess(TestPaths.repository + "/scripts/bar-check", [png], environment: environment, logPath: log)
            check.waitUntilExit(within: 240)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(check.terminationStatus == 0, "\(output)")
            #expect(output.contains("Waybar showed the widgetd modules"), "\(output)")
            #expect(FileManager.default.fileExists(atPath: png))
        }
    }
}
