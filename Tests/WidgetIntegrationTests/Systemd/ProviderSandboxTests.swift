import Foundation
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// The shipped example providers still work under the restrictions of
    /// systemd/widgetd.service, and forbidden things fail. scripts/provider-sandbox does the
    /// work (namespaces, read-only mounts, another uid, no capabilities, the unit's seccomp
    /// filter, all derived from the unit); this runs it on the binaries under test.
    @Suite struct ProviderSandbox {
        @Test(.needsRoot)
        func examplesRunUnderTheUnitsRestrictionsAndForbiddenThingsFail() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.repository + "/scripts/provider-sandbox")
            process.arguments = [TestPaths.binDirectory]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            let start = Date()
            try process.run()
            let overdue = process.deadline(600, "scripts/provider-sandbox")
            defer { overdue.end() }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            print(text, terminator: "")
            print("provider sandbox: \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
            if process.terminationStatus == 77 {
                print("provider sandbox: skipped (the script says why above)")
                return
            }
            #expect(process.terminationStatus == 0, "scripts/provider-sandbox failed:\n\(text)")
            #expect(text.contains("provider-sandbox: PASS"))
        }
    }
}
