import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    @Suite struct ProviderFaults {
        /// True when `pid` no longer runs (gone, or a zombie waiting for its reaper).
        static func isGone(_ pid: pid_t) -> Bool {
            if kill(pid, 0) != 0 { return true }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }

        @Test func hangingProviderIsKilledAtItsTimeoutWhileDaemonAnswers() throws {
            let fixture = try DaemonFixture()
            let pids = fixture.directory + "/pids"
            try fixture.provider("hang", """
                #!/bin/sh
                cat > /dev/null
                sleep 60 &
                echo "$$ $!" > "\(pids)"
                wait
                """)
            try fixture.descriptor("test.hang", exec: ["./hang"], timeout: 3)
            try fixture.start()
            // On the virtual clock `add` waits for its first load; another client is served meanwhile.
            let add = try fixture.launch(
                TestPaths.widgetctl, ["--socket", fixture.socketPath, "add", "test.hang", "--family", "systemSmall"],
                log: fixture.directory + "/add.log")
            let started = Date().addingTimeInterval(30)
            while ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").isEmpty, Date() < started { usleep(10_000) }
            try #require(!((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").isEmpty, "the provider did not start within 30 s")
            let ping = fixture.ctl("ping")
            #expect(ping.status == 0)
            #expect(add.isRunning)
            let id = try #require(fixture.ctl("--json", "list").array.first?["id"] as? String)
            add.waitUntilExit()
            #expect(add.terminationStatus == 0)

            let timeline = fixture.ctl("--json", "timeline", id).object
            #expect((timeline["lastError"] as? String)?.contains("timed out after 3 s and was killed") == true)
            let killed = ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(killed.count == 2)
            // The provider and the child it left behind both went with its process group.
            #expect(killed.allSatisfy(Self.isGone))
            #expect(fixture.log().contains("provider failed; previous timeline kept"))
        }

        /// A stopping daemon kills the providers running and starts none of the launches still
        /// waiting for a place under `max-concurrent`: each would otherwise run to its end or
        /// its time-out while the daemon waits.
        @Test func launchesWaitingForAPlaceStartNothingOnceTheDaemonStops() throws {
            let fixture = try DaemonFixture()
            let started = fixture.directory + "/started"
            try fixture.provider("stall", """
                #!/bin/sh
                cat > /dev/null
                echo "$$" >> "\(started)"
                exec sleep 120
                """)
            try fixture.descriptor("test.stall", exec: ["./stall"], timeout: 100)
            let config = fixture.directory + "/widgetd.conf"
            try "[providers]\nmax-concurrent = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            // On the virtual clock `add` waits for the instance's first load: each from a client
            // of its own, so that one runs and three wait for its place.
            var adds: [ChildProcess] = []
            for index in 0..<4 {
                adds.append(
                    try fixture.launch(
                        TestPaths.widgetctl, ["--socket", fixture.socketPath, "add", "test.stall", "--family", "systemSmall"],
                        log: fixture.directory + "/add\(index).log"))
            }
            func lines() -> Int { ((try? String(contentsOfFile: started, encoding: .utf8)) ?? "").split(separator: "\n").count }
            try Poll.until("four instances added and one provider started", within: 30) {
                lines() == 1 && fixture.ctl("--json", "list").array.count == 4
            }
            #expect(fixture.stop() == 0)
            for add in adds { add.waitUntilExit(within: 30) }
            #expect(lines() == 1, "providers started after the stop: \(lines() - 1)")
        }

        @Test func failingProviderKeepsPreviousTimelineAndRetriesUnderBudget() throws {
            let fixture = try DaemonFixture()
            try fixture.provider("fail", """
                #!/bin/sh
                cat > /dev/null
                echo "upstream unavailable" >&2
                exit 3
                """)
            try fixture.descriptor("test.fail", exec: ["./fail"])
            try fixture.provider("garbage", """
                #!/bin/sh
                cat > /dev/null
                echo "this is not json"
                """)
            try fixture.descriptor("test.garbage", exec: ["./garbage"])
            try fixture.start()
            let id = try fixture.add("test.fail")
            let garbage = try fixture.add("test.garbage")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let pushed = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"kept"}],"policy":"never"}"#
            #expect(fixture.ctl(["push", id, "-"], stdin: pushed).status == 0)
            #expect(fixture.ctl("reload", "test.fail").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)

            let timeline = fixture.ctl("--json", "timeline", id).object
            #expect(timeline["lastError"] as? String == "exited with status 3: upstream unavailable")
            #expect((timeline["currentEntry"] as? [String: Any])?["content"] as? String == "kept")
            // The retry is budgeted: five minutes after the failed budgeted attempt.
            let retry = timeline["nextReload"] as? [String: Any]
            #expect(retry?["reason"] as? String == "retry")
            #expect(retry?["due"] as? String == "2026-01-05T08:05:00Z")
            let bad = fixture.ctl("--json", "timeline", garbage).object
            #expect((bad["lastError"] as? String)?.hasPrefix("invalid answer: not JSON") == true)
            #expect(fixture.ctl("ping").status == 0)
        }

        @Test func oneFailedInstanceInABatchDoesNotFailTheOthers() throws {
            let fixture = try DaemonFixture()
            // Answers each instance by its city, in request order; Atlantis has no data.
            try fixture.provider("half", """
                #!/bin/sh
                cities=$(cat | grep -o '"city":"[^"]*"' | tail -n +2 | sed 's/"city":"\\(.*\\)"/\\1/')
                printf '{"timelines":['
                sep=''
                for city in $cities; do
                  if [ "$city" = Atlantis ]; then
                    printf '%s{"error":"no data for this city"}' "$sep"
                  else
                    printf '%s{"entries":[{"date":"2026-01-05T08:00:00Z","content":"fine"}],"policy":"never"}' "$sep"
                  fi
                  sep=','
                done
                printf ']}'
                """)
            try fixture.descriptor("test.half", exec: ["./half"], intent: DaemonFixture.testIntent, batch: true)
            try fixture.start()
            let good = try fixture.add("test.half", "city=Oslo")
            let bad = try fixture.add("test.half", "city=Atlantis")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            #expect(fixture.ctl("reload", "test.half", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let first = fixture.ctl("--json", "timeline", good).object
            #expect((first["currentEntry"] as? [String: Any])?["content"] as? String == "fine")
            #expect(first["lastError"] == nil)
            let second = fixture.ctl("--json", "timeline", bad).object
            #expect(second["lastError"] as? String == "invalid answer: the provider reported: no data for this city")
            #expect((second["nextReload"] as? [String: Any])?["reason"] as? String == "retry")
        }
    }
}
