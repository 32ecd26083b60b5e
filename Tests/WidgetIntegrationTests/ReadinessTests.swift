import Foundation
import Testing

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
            // Wait for the first load; its atEnd policy makes the next reload 08:02.
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let expected = "STATUS=1 instances, 1 kinds, next reload 2026-01-05T08:02:00Z, virtual clock at 2026-01-05T08:00:00Z"
            #expect(fixture.notify?.wait(for: expected, timeout: 10) != nil)
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
    }
}
