import Foundation

/// A program run to its end with its output captured, under a deadline.
enum ProgramRun {
    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        deadline: Double = DaemonFixture.ctlDeadline
    ) -> DaemonFixture.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        do { try process.run() } catch { return DaemonFixture.Result(status: -1, stdout: "", stderr: "\(error)") }
        let overdue = process.deadline(deadline, "\(executable) \(arguments.joined(separator: " "))")
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
