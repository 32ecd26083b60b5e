import Foundation

/// The real `widgetctl watch --format F --stack S` as a bar runs it, its output in a file; a
/// test waits for the line it expects, each wait with a deadline that names it.
final class BarWatch {
    let output: String
    private let process: ChildProcess
    /// Lines before this index were already taken by a wait.
    private var consumed = 0

    init(_ fixture: DaemonFixture, format: String, stack: String) throws {
        output = fixture.directory + "/bar-\(format)-\(stack).out"
        process = try fixture.launch(
            TestPaths.widgetctl, ["watch", "--format", format, "--stack", stack], environment: ["WIDGETD_SOCKET": fixture.socketPath],
            log: output)
    }

    deinit {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    var isRunning: Bool { process.isRunning }

    /// The module's process, for counting its wake-ups (`ThreadSwitches`).
    var processIdentifier: pid_t { process.processIdentifier }

    /// Every line so far, as written.
    var rawLines: [String] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits for a line after the last one taken that satisfies `condition`, and takes it (and
    /// those before it). A line that is not a JSON object fails the wait at once.
    @discardableResult
    func next(_ what: String, within seconds: Double = 30, _ condition: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        var found: [String: Any]?
        try Poll.until("a bar line: \(what) (lines so far: \(rawLines))", within: seconds) {
            let lines = rawLines
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                    throw FixtureError("not a JSON object: \(line)")
                }
                if condition(object) {
                    found = object
                    return true
                }
            }
            return false
        }
        return found!
    }
}
