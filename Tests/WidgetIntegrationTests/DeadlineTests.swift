import Foundation
import Testing

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
}
