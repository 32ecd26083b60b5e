import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

/// The waits of the suite end: a process that runs past its deadline is killed and its test
/// fails, instead of the suite hanging.
@Suite struct Deadlines {
    @Test func aProcessPastItsDeadlineIsKilledAndItsTestFails() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        let start = ContinuousClock.now
        try process.run()
        let overdue = process.deadline(0.3, "sleep 60")
        process.waitUntilExit()
        #expect(overdue.expired)
        withKnownIssue { overdue.end() }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func aProcessThatFinishesInTimeIsLeftAlone() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let overdue = process.deadline(30, "true")
        process.waitUntilExit()
        overdue.end()
        #expect(!overdue.expired)
        #expect(process.terminationStatus == 0)
    }

    @Test func aChildThatDoesNotExitIsKilledAtTheDeadlineOfItsWait() throws {
        let child = try ChildProcess("/bin/sleep", ["60"], environment: [:], logPath: "/dev/null")
        let start = ContinuousClock.now
        withKnownIssue { child.waitUntilExit(within: 0.3) }
        #expect(child.terminationStatus == 128 + SIGKILL)
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// `scripts/test-watchdog`, which `scripts/test` runs the suite under: a test that runs past
    /// the limit stops the run, named with its time, with exit 124; a run that ends is left alone
    /// and keeps its status; a parameterized test's cases are not tracked on their own.
    @Test func theWatchdogStopsAStuckRunAndNamesTheTest() throws {
        let script = """
            echo '◇ Test quick(x:) started.'; echo '✔ Test quick(x:) passed after 0.1 seconds.'
            echo '◇ Test stuck() started.'; sleep 60 & echo "$! $(cut -d' ' -f22 /proc/$!/stat)" > "$0"; wait
            """
        let pidFile = temporaryDirectory() + "/sleep.pid"
        let stuck = try Self.watchdog(["bash", "-c", script, pidFile], limit: 2)
        #expect(stuck.status == 124)
        #expect(stuck.output.contains("test stuck() has run for more than 2 s"), "\(stuck.output)")
        #expect(stuck.output.contains("still running after"), "\(stuck.output)")
        #expect(!stuck.output.contains("quick(x:) has run"), "\(stuck.output)")
        // The stuck run's own children went with it.
        let written = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: " ")
        let sleeper = written.first.flatMap { pid_t($0) } ?? 0
        let started = written.dropFirst().first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        #expect(sleeper > 0 && !Self.alive(sleeper, startedAt: started), "sleep \(sleeper) outlived the stopped run")

        let finished = try Self.watchdog(
            ["bash", "-c", "echo '◇ Test a() started.'; echo '✘ Test a() failed after 1 seconds with 1 issue.'; exit 3"],
            limit: 2)
        #expect(finished.status == 3)
        #expect(finished.output.contains("✘ Test a() failed"))
        #expect(!finished.output.contains("test watchdog"))

        // A parameterized test's cases print no line when they pass: only their test counts,
        // so a case started long ago does not look stuck.
        let cases = try Self.watchdog(
            ["bash", "-c", """
                echo '◇ Test p(x:) started.'; echo '◇ Test case passing 1 argument x → 1 to p(x:) started.'
                echo '✔ Test p(x:) passed after 0.1 seconds with 1 test case.'; sleep 4; echo done
                """],
            limit: 2)
        #expect(cases.status == 0, "\(cases.output)")
        #expect(!cases.output.contains("test watchdog"), "\(cases.output)")
    }

    /// Running, as opposed to gone or a zombie that its new parent has not reaped yet.
    /// Whether the process `pid` that started at `startedAt` (clock ticks after boot, field 22
    /// of its stat) still lives: with pid_max at 32768 and builds running, a pid freed by the
    /// kill may already belong to another process.
    private static func alive(_ pid: pid_t, startedAt: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // The fields after the name, from the state (field 3) on.
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 19, fields[19] == startedAt else { return false }
        return fields[0] != "Z"
    }

    private static func watchdog(_ command: [String], limit: Int) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.repository + "/scripts/test-watchdog")
        process.arguments = command
        var environment = ProcessInfo.processInfo.environment
        environment["WIDGETD_TEST_LIMIT"] = "\(limit)"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let overdue = process.deadline(60, "scripts/test-watchdog \(command.joined(separator: " "))")
        defer { overdue.end() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
