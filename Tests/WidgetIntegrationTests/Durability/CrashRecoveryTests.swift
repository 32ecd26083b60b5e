import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Nothing acknowledged is lost: a SIGKILL right after the answers changes nothing.
    @Suite struct CrashRecovery {
        @Test func sigkillKeepsEveryAcknowledgedChange() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.descriptor("test.pushed", exec: nil, families: ["systemSmall", "systemLarge"], intent: DaemonFixture.testIntent)
            try fixture.start()
            var ids: [String] = []
            for index in 0..<10 {
                ids.append(try fixture.add("test.counter", family: index % 2 == 0 ? "systemSmall" : "systemMedium", "slot=\(index)"))
            }
            let pushedID = try fixture.add("test.pushed", family: "systemLarge", #"city="Kyoto""#)
            let timeline = #"{"entries":[{"date":"2026-01-05T08:30:00Z","content":{"temp":7}}],"policy":"never"}"#
            #expect(fixture.ctl(["push", pushedID, "-"], stdin: timeline).status == 0)
            #expect(fixture.ctl("clock", "advance", "2m").status == 0)  // first loads, then a budgeted reload
            #expect(fixture.ctl("configure", ids[3], "--set", "slot=33", "--set", "extra=true").status == 0)
            #expect(fixture.ctl("remove", ids[9]).status == 0)
            #expect(fixture.ctl("reload", "test.counter").status == 0)  // deferred by the budget: must survive
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)  // the configuration reload runs now

            let listBefore = fixture.ctl("--json", "list").array
            let timelineBefore = fixture.ctl("--json", "timeline", pushedID).object
            let scheduleBefore = fixture.ctl("--json", "schedule").array
            let budgetBefore = fixture.ctl("--json", "budget", ids[0]).object
            fixture.crash()

            try fixture.start(clock: "2026-01-05T08:02:00Z")
            let listAfter = fixture.ctl("--json", "list").array
            #expect(listAfter.count == 10)
            #expect(listAfter.map { $0["id"] as? String } == listBefore.map { $0["id"] as? String })
            #expect(listAfter.map { NSDictionary(dictionary: $0["configuration"] as? [String: Any] ?? [:]) }
                == listBefore.map { NSDictionary(dictionary: $0["configuration"] as? [String: Any] ?? [:]) })
            let configured = listAfter.first { $0["id"] as? String == ids[3] }
            #expect((configured?["configuration"] as? [String: Any])?["slot"] as? Int == 33)
            #expect(!listAfter.contains { $0["id"] as? String == ids[9] })
            let timelineAfter = fixture.ctl("--json", "timeline", pushedID).object
            #expect(NSDictionary(dictionary: timelineAfter["entries"].map { ["e": $0] } ?? [:])
                == NSDictionary(dictionary: timelineBefore["entries"].map { ["e": $0] } ?? [:]))
            // Budgets and the pending (deferred) requests were rebuilt, not reset.
            #expect(fixture.ctl("--json", "budget", ids[0]).object["used"] as? Int == budgetBefore["used"] as? Int)
            let scheduleAfter = fixture.ctl("--json", "schedule").array
            #expect(Set(scheduleAfter.compactMap { $0["instance"] as? String }) == Set(scheduleBefore.compactMap { $0["instance"] as? String }))
            #expect(scheduleAfter.map { $0["due"] as? String } == scheduleBefore.map { $0["due"] as? String })
        }

        @Test func firstLoadInterruptedByCrashRunsAfterRestart() throws {
            let fixture = try DaemonFixture()
            // Hangs until `release` exists, logging each start, so the crash lands mid-load.
            let release = fixture.directory + "/release"
            let starts = fixture.directory + "/starts"
            try fixture.provider("gated", """
                #!/bin/sh
                cat > /dev/null
                echo "$$" >> "\(starts)"
                while [ ! -e "\(release)" ]; do sleep 0.05; done
                printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":"ok"}],"policy":"never"}'
                """)
            try fixture.descriptor("test.gated", exec: ["./gated"], timeout: 100)
            try fixture.start()
            // On the virtual clock `add` answers once its first load has run: the crash comes
            // while it waits. The instance itself was stored before the load began.
            let add = try fixture.launch(
                TestPaths.widgetctl, ["--socket", fixture.socketPath, "add", "test.gated", "--family", "systemSmall"],
                log: fixture.directory + "/add.log")
            let started = Date().addingTimeInterval(30)
            while ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").isEmpty, Date() < started { usleep(10_000) }
            let id = try #require(fixture.ctl("--json", "list").array.first?["id"] as? String)
            fixture.crash()
            add.waitUntilExit()
            #expect(add.terminationStatus == 3)  // the daemon vanished before answering

            _ = FileManager.default.createFile(atPath: release, contents: nil)
            try fixture.start()
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let timeline = fixture.ctl("--json", "timeline", id).object
            #expect((timeline["currentEntry"] as? [String: Any])?["content"] as? String == "ok")
            let pids = ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n")
            #expect(pids.count == 2)
            for pid in pids.compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        }

        @Test func aRequestMadeWhileALaunchRunsSurvivesItsCompletion() throws {
            let fixture = try DaemonFixture()
            let (starts, release) = try fixture.gatedProvider()
            try fixture.descriptor("test.gated", exec: ["./gated"], timeout: 100, intent: DaemonFixture.testIntent)
            try fixture.start()
            // On the virtual clock `add` answers once its first load has run: it is sent in the
            // background, and the instance read from `list` (it is there before the load ends).
            let add = try fixture.launch(
                TestPaths.widgetctl, ["--socket", fixture.socketPath, "add", "test.gated", "--family", "systemSmall"],
                log: fixture.directory + "/add.log")
            func startsCount() -> Int { ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n").count }
            let started = Date().addingTimeInterval(30)
            while startsCount() < 1, Date() < started { usleep(10_000) }
            let id = try #require(fixture.ctl("--json", "list").array.first?["id"] as? String)
            // Acknowledged while the first load runs, at the same (virtual) instant.
            #expect(fixture.ctl("configure", id, "--set", "slot=1").status == 0)
            _ = FileManager.default.createFile(atPath: release + "0", contents: nil)
            add.waitUntilExit()
            #expect(add.terminationStatus == 0)
            let relaunched = Date().addingTimeInterval(30)
            while startsCount() < 2, Date() < relaunched { usleep(10_000) }
            try #require(startsCount() == 2, "the configuration's reload did not start within 30 s")
            fixture.crash()
            let rows = try StateSQL.rows(fixture.stateDirectory + "/state.sqlite", "SELECT reason FROM request", readOnly: false)
            #expect(rows == ["configuration"])
            let pids = ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n")
            for pid in pids.compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        }
    }
}
