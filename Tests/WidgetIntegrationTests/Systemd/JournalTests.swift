import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Logs go to the journal natively, with structured fields from the log metadata.
    @Suite struct Journal {
        @Test func structuredFieldsReachTheJournal() throws {
            let journald = try JournalFixture.ensureRunning()
            defer { journald?.stop() }
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start(arguments: ["--log-target", "journal"])
            let id = try fixture.add("test.counter", family: "systemMedium")
            let pid = fixture.process!.processIdentifier
            fixture.stop()

            // PIDs are reused and the journal outlives test runs: match this run's instance too.
            let entries = JournalFixture.entries(matching: ["SYSLOG_IDENTIFIER=widgetd", "_PID=\(pid)"])
            let added = try #require(entries.first { $0["MESSAGE"] as? String == "instance added" && $0["INSTANCE"] as? String == id })
            #expect(added["INSTANCE"] as? String == id)
            #expect(added["KIND"] as? String == "test.counter")
            #expect(added["FAMILY"] as? String == "systemMedium")
            #expect(added["PRIORITY"] as? String == "6")
            #expect(entries.contains { $0["MESSAGE"] as? String == "widgetd ready" })
        }

        @Test func rotationDecisionsCarryTheirFields() throws {
            let journald = try JournalFixture.ensureRunning()
            defer { journald?.stop() }
            let fixture = try DaemonFixture()
            try fixture.start(
                clock: "2026-01-05T09:00:00Z",
                arguments: ["--log-target", "journal", "--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            // PIDs are reused and the journal outlives test runs: a stack name of this run's own.
            let stack = "home-\(UInt32.random(in: 0...UInt32.max))"
            #expect(fixture.ctl("stack", "create", stack).status == 0)
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("stack", "add", stack, random, ranger).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let pid = fixture.process!.processIdentifier
            fixture.stop()
            let entries = JournalFixture.entries(matching: ["SYSLOG_IDENTIFIER=widgetd", "_PID=\(pid)", "STACK=\(stack)", "REASON=betterCandidate"])
            let rotated = try #require(entries.first)
            #expect(rotated["MESSAGE"] as? String == "stack rotated")
            #expect(rotated["STACK"] as? String == stack)
            #expect(rotated["FROM"] as? String == random)
            #expect(rotated["TO"] as? String == ranger)
            let candidates = (rotated["CANDIDATES"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]
            #expect(candidates?.compactMap { $0["instance"] as? String } == [random, ranger])
            #expect(candidates?.last?["rank"] as? Double == 1)
        }
    }
}

/// A systemd-journald for tests: the machine's if one runs, else one started by hand.
final class JournalFixture {
    private let process: ChildProcess

    private init(process: ChildProcess) {
        self.process = process
    }

    /// nil when a journald was already listening.
    static func ensureRunning() throws -> JournalFixture? {
        let socket = "/run/systemd/journal/socket"
        if FileManager.default.fileExists(atPath: socket), (try? RawDatagramCheck.canConnect(socket)) == true { return nil }
        let process = try ChildProcess(
            "/lib/systemd/systemd-journald", [], environment: ProcessInfo.processInfo.environment, logPath: "/dev/null")
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        return JournalFixture(process: process)
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// `journalctl -o json` entries matching every `FIELD=value`, flushed first.
    static func entries(matching matches: [String]) -> [[String: Any]] {
        for _ in 0..<50 {
            let output = run("/usr/bin/journalctl", ["-o", "json", "--no-pager"] + matches)
            let entries = output.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            if !entries.isEmpty { return entries }
            usleep(100_000)
        }
        return []
    }

    private static func run(_ executable: String, _ arguments: [String]) -> String {
        ProgramRun.run(executable, arguments, deadline: 60).stdout
    }
}

enum RawDatagramCheck {
    /// Whether something listens on a datagram socket path.
    static func canConnect(_ path: String) throws -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        return UnixAddress.connect(fd, path) == 0
    }
}
