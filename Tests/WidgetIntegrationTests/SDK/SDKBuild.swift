import Foundation

/// `swift` run on a provider package for `StandaloneSDK`, and the provider it builds, each to
/// its end under a deadline that fails the test naming it.
enum SDKBuild {
    /// `offline`: in a network namespace of its own (`unshare --net`) where this machine allows
    /// one, so that any fetch fails; the dependency graph is checked either way.
    static func swift(_ arguments: [String], home: String, offline: Bool = false) -> DaemonFixture.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        let swift = ["/usr/bin/env", "swift"] + arguments
        if offline, canUnshareNetwork {
            return run("/usr/bin/unshare", ["--net"] + swift, environment: environment, deadline: 900)
        }
        return run(swift[0], Array(swift.dropFirst()), environment: environment, deadline: 900)
    }

    static let canUnshareNetwork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return run("/usr/bin/unshare", ["--net", "/bin/true"], environment: [:], deadline: 30).status == 0
    }()

    static func run(
        _ executable: String, _ arguments: [String], stdin: String = "", environment: [String: String]? = nil, deadline: Double = 60
    ) -> DaemonFixture.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let input = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return DaemonFixture.Result(status: -1, stdout: "", stderr: "\(error)") }
        let overdue = process.deadline(deadline, "\(executable) \(arguments.joined(separator: " "))")
        defer { overdue.end() }
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        // stderr is read on its own thread so that neither pipe fills while the other is read.
        let errors = ErrorText()
        let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DaemonFixture.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: errors.text())
    }

    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        func set(_ value: Data) {
            lock.withLock { data = value }
            done.signal()
        }

        /// Waits for the reader, which ends with the process's stderr.
        func text() -> String {
            _ = done.wait(timeout: .now() + 60)
            return lock.withLock { String(decoding: data, as: UTF8.self) }
        }
    }
}
