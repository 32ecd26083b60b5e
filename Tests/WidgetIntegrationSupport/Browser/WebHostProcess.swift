import Foundation

/// A real `widgetd-web` on a free port of 127.0.0.1, talking to a fixture's daemon.
final class WebHostProcess {
    private var process: ChildProcess?
    let port: Int
    let logPath: String
    var url: String { "http://127.0.0.1:\(port)/" }

    /// `arguments` follow the socket and TCP listener; `openFileLimit` starts it under
    /// `prlimit --nofile=N:N` (which execs it: the process is the host's own).
    init(_ fixture: DaemonFixture, arguments: [String] = [], openFileLimit: Int? = nil) throws {
        logPath = fixture.directory + "/web.log"
        let host = [TestPaths.widgetdWeb, "--socket", fixture.socketPath, "--listen", "127.0.0.1:0"] + arguments
        let command = openFileLimit.map { ["/usr/bin/prlimit", "--nofile=\($0):\($0)"] + host } ?? host
        let process = try fixture.launch(command[0], Array(command.dropFirst()), log: logPath)
        self.process = process
        var port: Int?
        let log = logPath
        try Poll.until("widgetd-web to print the address it serves") {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let range = text.range(of: "serving http://127.0.0.1:") else {
                if !process.isRunning { throw FixtureError("widgetd-web exited; its log:\n\(text)") }
                return false
            }
            port = Int(text[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        self.port = port!
    }

    var processIdentifier: pid_t { process?.processIdentifier ?? 0 }
    var isRunning: Bool { process?.isRunning ?? false }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit(within: 30)
        self.process = nil
        return process.terminationStatus
    }

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}
