import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    @Suite struct Systemd {
        @Test func socketActivationAdoptsThePassedSocket() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            let notify = try NotifySocket(path: fixture.directory + "/notify-sa.sock")
            let activated = fixture.directory + "/activated.sock"
            let unused = fixture.directory + "/unused.sock"
            let activator = try fixture.launch("/usr/bin/systemd-socket-activate", [
                "-l", activated, "--fdname=control", "-E", "NOTIFY_SOCKET=\(notify.path)",
                TestPaths.widgetd, "--socket", unused, "--state-dir", fixture.stateDirectory,
                "--widgets-dir", fixture.widgetsDirectory, "--clock", "virtual:" + DaemonFixture.virtualStart,
                "--log-target", "stderr",
            ])
            defer {
                if activator.isRunning {
                    kill(activator.processIdentifier, SIGKILL)
                    activator.waitUntilExit()
                }
            }
            // systemd-socket-activate binds first and starts widgetd on the first connection.
            var waited = 0
            while !FileManager.default.fileExists(atPath: activated) && waited < 300 {
                usleep(10_000)
                waited += 1
            }
            let ping = fixture.ctl(["--json", "ping"], socket: activated)
            #expect(ping.status == 0)
            #expect(ping.object["daemon"] is String)
            #expect(notify.wait(for: "READY=1", timeout: 10) != nil)
            let added = fixture.ctl(["--json", "add", "test.counter", "--family", "systemSmall"], socket: activated)
            #expect(added.status == 0)
            // It did not bind its own socket path.
            #expect(!FileManager.default.fileExists(atPath: unused))
            kill(activator.processIdentifier, SIGTERM)
            activator.waitUntilExit()
            #expect(notify.wait(for: "STOPPING=1", timeout: 5) != nil)
        }

        @Test func sighupReloadsDescriptorsWithReloadingThenReady() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            try fixture.descriptor("test.late", exec: nil)
            try "{ not json".write(toFile: fixture.widgetsDirectory + "/broken.json", atomically: true, encoding: .utf8)
            kill(fixture.process!.processIdentifier, SIGHUP)
            let reloading = fixture.notify?.wait(for: "RELOADING=1", timeout: 10)
            #expect(reloading?.contains("MONOTONIC_USEC=") == true)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            let widgets = fixture.ctl("--json", "widgets").object
            let kinds = (widgets["widgets"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == ["test.counter", "test.late"])
            let problems = widgets["problems"] as? [[String: Any]] ?? []
            #expect(problems.first?["path"] as? String == fixture.widgetsDirectory + "/broken.json")
            #expect(problems.first?["reason"] as? String == "not valid JSON: line 1, column 3: expected a key in double quotes, found 'n'")
            #expect(fixture.ctl("ping").status == 0)
        }

        @Test func aKindRemovedAndRestoredOnSighupResumesItsSchedule() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let descriptor = fixture.widgetsDirectory + "/test.counter.json"
            let saved = try Data(contentsOf: URL(fileURLWithPath: descriptor))
            try FileManager.default.removeItem(atPath: descriptor)
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            // Without a provider nothing is scheduled, and nothing runs (or is charged).
            #expect(fixture.ctl("--json", "schedule").array.isEmpty)
            #expect(fixture.ctl("clock", "advance", "3m").status == 0)
            #expect(fixture.launches().count == 1)
            #expect(fixture.ctl("--json", "list").array.first?["id"] as? String == id)

            try saved.write(to: URL(fileURLWithPath: descriptor))
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // Its atEnd (08:02) passed meanwhile: due now, and not held back by the budget.
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T08:03:00Z"])
        }

        @Test func shippedUnitsVerify() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [TestPaths.repository + "/scripts/verify-units", TestPaths.widgetd]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let overdue = process.deadline(300, "scripts/verify-units")
            defer { overdue.end() }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
        }

        @Test func shippedExamplesLoadAndRun() throws {
            let fixture = try DaemonFixture()
            try fixture.start(arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let widgets = fixture.ctl("--json", "widgets").object
            let kinds = (widgets["widgets"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == [
                "com.example.clock", "com.example.emoji-rangers", "com.example.quote", "com.example.random-number",
                "com.example.shortcuts", "com.example.system-load", "com.example.todo", "com.example.up-next",
            ])
            #expect((widgets["problems"] as? [Any])?.isEmpty == true)
            let clock = try fixture.add("com.example.clock")
            let quote = try fixture.add("com.example.quote", family: "systemMedium")
            let load = try fixture.add("com.example.system-load")
            #expect(fixture.ctl("clock", "advance", "1m").status == 0)
            for id in [clock, quote, load] {
                let timeline = fixture.ctl("--json", "timeline", id).object
                #expect(timeline["lastError"] == nil, "\(id): \(timeline["lastError"] ?? "")")
                #expect((timeline["entries"] as? [Any])?.isEmpty == false)
            }
            let clockEntries = fixture.ctl("--json", "timeline", clock).object["entries"] as? [[String: Any]] ?? []
            #expect(clockEntries.first?["date"] as? String == "2026-01-05T08:00:00Z")
        }
    }
}
