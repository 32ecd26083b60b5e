import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// `widgetctl widgets check` (no daemon), and a kind whose provider cannot run as the real
    /// daemon lists and refuses it.
    @Suite struct DescriptorCheck {
        @Test func checkPrintsAProblemPerLineAndExits1WhenAnyFileIsBad() throws {
            let fixture = try DaemonFixture()
            let dir = fixture.widgetsDirectory
            try fixture.provider("run", "#!/bin/sh\n")
            try #"{"kind": "t.good", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./run"]}}"#
                .write(toFile: dir + "/good.json", atomically: true, encoding: .utf8)
            try #"{"kind": "t.typo", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./run"], "timout": 5}}"#
                .write(toFile: dir + "/typo.json", atomically: true, encoding: .utf8)
            try "{\n  \"kind\": \"t.broken\",\n  \"supportedFamilies\": [\"systemSmall\"],\n}\n"
                .write(toFile: dir + "/broken.json", atomically: true, encoding: .utf8)
            try #"[{"kind": "t.gone", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./gone"]}}]"#
                .write(toFile: dir + "/gone.json", atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: dir + "/plain", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644])
            try #"{"kind": "t.plain", "supportedFamilies": ["systemSmall"], "provider": {"exec": ["./plain"]}}"#
                .write(toFile: dir + "/plain.json", atomically: true, encoding: .utf8)
            let files = ["good", "typo", "broken", "gone", "plain"].map { dir + "/" + $0 + ".json" }

            let result = fixture.ctl(["widgets", "check"] + files)
            #expect(result.status == 1)
            #expect(result.stdout == "OK  \(dir)/good.json: t.good\n")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines == [
                #"\#(dir)/typo.json: $.provider.timout: unknown key; did you mean "timeout"?"#,
                "\(dir)/broken.json: not valid JSON: line 3, column 39: a comma before '}' (no trailing commas in JSON)",
                "\(dir)/gone.json: $[0].provider.exec[0]: \(dir)/gone does not exist",
                "\(dir)/plain.json: $.provider.exec[0]: \(dir)/plain is not executable (chmod +x?)",
                "widgetctl: 4 of 5 descriptor files have problems",
            ])

            let json = fixture.ctl(["--json", "widgets", "check"] + files)
            #expect(json.status == 1)
            #expect(json.object["ok"] as? Bool == false)
            let reports = json.object["files"] as? [[String: Any]] ?? []
            #expect(reports.map { $0["ok"] as? Bool } == [true, false, false, false, false])
            #expect(reports.first?["kinds"] as? [String] == ["t.good"])
            let problem = (reports[1]["problems"] as? [[String: Any]])?.first
            #expect(problem?["path"] as? String == dir + "/typo.json")
            #expect(problem?["reason"] as? String == #"$.provider.timout: unknown key; did you mean "timeout"?"#)

            let good = fixture.ctl("widgets", "check", dir + "/good.json")
            #expect(good.status == 0)
            #expect(good.stderr.isEmpty)
            #expect(fixture.ctl("widgets", "check").status == 2)
        }

        @Test func theShippedDescriptorsPassTheCheck() throws {
            let fixture = try DaemonFixture()
            let folder = TestPaths.repository + "/etc/widgetd/widgets.d"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
            // The Swift examples' bundle is named bare, found on PATH as the daemon finds it.
            let result = ProgramRun.run(
                TestPaths.widgetctl, ["widgets", "check"] + files,
                environment: ["PATH": TestPaths.binDirectory + ":/usr/bin:/bin", "WIDGETD_SOCKET": fixture.socketPath])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == files.count)
            #expect(result.stdout.contains("OK  \(folder)/clock.json: com.example.clock\n"))
        }

        @Test func aKindWhoseProgramIsMissingIsListedWithItsProblemAndRefused() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.descriptor("test.missing", exec: ["./not-yet"])
            try fixture.start()
            let problem = "$.provider.exec[0]: \(fixture.widgetsDirectory)/not-yet does not exist"

            let widgets = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            #expect(widgets.map { $0["kind"] as? String } == ["test.counter", "test.missing"])
            #expect(widgets.first?["problem"] == nil)
            #expect(widgets.last?["problem"] as? String == problem)
            #expect(fixture.ctl("widgets").stdout.contains("cannot use test.missing (\(fixture.widgetsDirectory)/test.missing.json): \(problem)"))
            #expect(fixture.log().contains("kind cannot be used"))

            let add = fixture.ctl("add", "test.missing", "--family", "systemSmall")
            #expect(add.status == 1)
            #expect(add.stderr.contains("kind 'test.missing' cannot be used: \(problem)"))
            let reload = fixture.ctl("reload", "test.missing")
            #expect(reload.status == 1)
            #expect(reload.stderr.contains(problem))
            #expect(fixture.ctl("--json", "list").array.isEmpty)
            #expect(fixture.ctl("add", "test.counter", "--family", "systemSmall").status == 0)

            // Once the program is there, reading the descriptors again clears the problem.
            try fixture.provider("not-yet", "#!/bin/sh\ncat >/dev/null\necho '{\"entries\":[]}'\n")
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "RELOADING=1", timeout: 30) != nil)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 30) != nil)
            let after = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            #expect(after.last?["problem"] == nil)
            #expect(fixture.ctl("add", "test.missing", "--family", "systemSmall").status == 0)
        }
    }
}
