import Foundation

/// A program run to its end with its output captured, under a deadline that fails the test
/// naming it: every short-lived program the integration tests run (`widgetctl`, `setpriv`,
/// `useradd`, a provider, `python3`) goes through here.
enum ProgramRun {
    /// `environment` is added to the test's own, or is the whole of it with
    /// `inheritEnvironment: false`. `stdin` is written, then closed; without it the program
    /// reads end of file. `what` names the program in the deadline's failure; `started` is
    /// given its pid.
    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        inheritEnvironment: Bool = true, directory: String? = nil, deadline: Double = DaemonFixture.ctlDeadline,
        what: String? = nil, started: (pid_t) -> Void = { _ in }
    ) -> DaemonFixture.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = inheritEnvironment ? ProcessInfo.processInfo.environment.merging(environment) { $1 } : environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        do { try process.run() } catch { return DaemonFixture.Result(status: -1, stdout: "", stderr: "\(error)") }
        started(process.processIdentifier)
        // The deadline of every program: one that never ends fails the test, not hangs it.
        let overdue = process.deadline(deadline, what ?? "\(executable) \(arguments.joined(separator: " "))")
        defer { overdue.end() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Both pipes drain at once, so a program that fills one while the other is read never stalls.
        nonisolated(unsafe) var stderr = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stderr = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return DaemonFixture.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
