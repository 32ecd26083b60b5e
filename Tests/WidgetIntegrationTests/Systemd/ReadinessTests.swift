import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    @Suite struct Readiness {
        @Test func readyAfterListeningThenStoppingOnSIGTERM() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            // READY=1 came (start waits for it); the socket answers now.
            let ping = fixture.ctl("--json", "ping")
            #expect(ping.status == 0)
            #expect(ping.object["protocol"] as? Int == 1)
            #expect(FileManager.default.fileExists(atPath: fixture.socketPath))
            var info = stat()
            #expect(stat(fixture.socketPath, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660)

            #expect(fixture.stop() == 0)
            #expect(fixture.notify?.wait(for: "STOPPING=1", timeout: 5) != nil)
            // A clean exit removes the socket file.
            #expect(!FileManager.default.fileExists(atPath: fixture.socketPath))
        }

        @Test func statusLineSummarisesState() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            _ = try fixture.add("test.counter")
            // Wait for the first load: the next thing due is its second entry, at 08:01.
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let expected = "STATUS=1 instances, 1 kinds, next wake-up 2026-01-05T08:01:00Z, virtual clock at 2026-01-05T08:00:00Z"
            #expect(fixture.notify?.wait(for: expected, timeout: 10) != nil)
        }

        /// systemd always reads NOTIFY_SOCKET; a test harness or a wrapper may not. Its queue
        /// holds 10 datagrams, after which `sd_notify` blocks: before STATUS= was paced and
        /// sent off the loop, the 11th status change stopped the daemon's loop for good.
        @Test func anUnreadNotifySocketHoldsUpNothing() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start(clock: nil)
            // From here on nothing reads the notify socket. Every add changes STATUS=, and on
            // the real clock the engine launches the first loads.
            var ids: [String] = []
            for _ in 0..<15 { ids.append(try fixture.add("test.counter")) }
            var loaded: Set<String> = []
            for _ in 0..<3000 where loaded.count < ids.count {
                let list = fixture.ctl("--json", "list").array
                loaded = Set(list.filter { $0["hasTimeline"] as? Bool == true }.compactMap { $0["id"] as? String })
                if loaded.count < ids.count { usleep(20_000) }
            }
            #expect(loaded == Set(ids))
        }

        @Test func watchdogPingsComeFromTheSchedulerLoop() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            // As systemd does for WatchdogSec=0.4s: the daemon must ping every 0.2 s.
            try fixture.start(environment: ["WATCHDOG_USEC": "400000"])
            #expect(fixture.notify?.wait(for: "WATCHDOG=1", timeout: 5) != nil)
            #expect(fixture.notify?.wait(for: "WATCHDOG=1", timeout: 5) != nil)
            #expect(fixture.log().contains("watchdog enabled"))
        }

        @Test func sigtermDuringAClockAdvanceStopsLaunching() throws {
            let fixture = try DaemonFixture()
            let starts = fixture.directory + "/starts"
            try fixture.provider("slow", """
                #!/bin/sh
                cat > /dev/null
                echo x >> "\(starts)"
                sleep 0.3
                printf '{"entries":[],"policy":"atEnd"}'
                """)
            try fixture.descriptor("test.slow", exec: ["./slow"])
            try fixture.start(arguments: ["--no-budget"])
            for _ in 0..<3 { _ = try fixture.add("test.slow") }
            // 288 reloads a day each (the stale-policy guard retries every 5 min): a long advance.
            let advance = try fixture.launch(
                TestPaths.widgetctl, ["--socket", fixture.socketPath, "clock", "advance", "1d"], log: fixture.directory + "/advance.log")
            while ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").count < 4 { usleep(20_000) }
            #expect(fixture.stop() == 0)
            advance.waitUntilExit()
            let launched = ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n").count
            // Without the fix every remaining launch of the day ran before the daemon exited.
            #expect(launched < 20)
            // The advance was cut short (refused as shutting down, or the connection closed).
            #expect(advance.terminationStatus == 1 || advance.terminationStatus == 3)
            #expect(launched >= 2)
            #expect(fixture.notify?.wait(for: "STOPPING=1", timeout: 5) != nil)
        }
    }
}
