import Foundation
@testable import WidgetTestSupport

/// A real `widgetd` on a temporary socket and state dir, driven by the real `widgetctl`.
/// Everything lives under one temporary folder that is removed with the fixture.
final class DaemonFixture {
    static let virtualStart = "2026-01-05T08:00:00Z"

    let directory: String
    var socketPath: String { directory + "/widgetd.sock" }
    var stateDirectory: String { directory + "/state" }
    var widgetsDirectory: String { directory + "/widgets" }
    var logPath: String { directory + "/widgetd.log" }
    private(set) var notify: NotifySocket?
    private(set) var process: ChildProcess?

    init() throws {
        directory = temporaryDirectory()
        try FileManager.default.createDirectory(atPath: widgetsDirectory, withIntermediateDirectories: true)
    }

    deinit {
        process = nil  // kills a daemon still running
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Widgets

    /// Writes an executable provider script and returns its path.
    @discardableResult
    func provider(_ name: String, _ script: String) throws -> String {
        let path = widgetsDirectory + "/" + name
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// A provider whose launch n (from 0) logs its pid to `starts`, waits for the file
    /// `release<n>`, then answers one entry with the content "run<n>"; so a test decides when
    /// each launch ends. Paths in the fixture's directory.
    func gatedProvider(_ name: String = "gated") throws -> (starts: String, release: String) {
        let starts = directory + "/starts"
        let release = directory + "/release"
        try provider(name, """
            #!/bin/sh
            cat > /dev/null
            n=$(cat "\(starts)" 2>/dev/null | wc -l)
            echo "$$" >> "\(starts)"
            while [ ! -e "\(release)$n" ]; do sleep 0.02; done
            printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":"run%s"}],"policy":"never"}' "$n"
            """)
        return (starts, release)
    }

    /// Writes a descriptor for `kind` run by `exec` (relative paths resolve in the widgets dir).
    func descriptor(
        _ kind: String, exec: [String]?, families: [String] = ["systemSmall", "systemMedium"], timeout: Double? = nil,
        intent: [String: Any]? = nil, batch: Bool = false, clues: [String] = []
    ) throws {
        var object: [String: Any] = ["kind": kind, "displayName": kind, "supportedFamilies": families]
        if let intent { object["intent"] = intent }
        if !clues.isEmpty { object["clues"] = clues }
        if let exec {
            var provider: [String: Any] = ["exec": exec]
            if let timeout { provider["timeout"] = timeout }
            if batch { provider["batch"] = true }
            object["provider"] = provider
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: widgetsDirectory + "/" + kind + ".json"))
    }

    /// The `counter` provider: logs `now` and the number of instances of each launch to
    /// `launches.log`, answers three entries a minute apart from `now`, policy atEnd.
    func counterWidget(_ kind: String = "test.counter", timeout: Double? = nil) throws {
        try provider("counter", """
            #!/bin/sh
            request=$(cat)
            now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
            count=$(printf '%s' "$request" | grep -o '"instance":' | wc -l)
            echo "$now $((count - 1)) $2" >> "$1"
            t=$(date -u -d "$now" +%s)
            d() { date -u -d "@$(( t + $1 ))" +%Y-%m-%dT%H:%M:%SZ; }
            printf '{"entries":[{"date":"%s","content":{"n":0}},{"date":"%s","content":{"n":1}},{"date":"%s","content":{"n":2}}],"policy":"atEnd"}\\n' "$(d 0)" "$(d 60)" "$(d 120)"
            """)
        // Its answer is the same for every instance, so it may serve any batch.
        try descriptor(kind, exec: ["./counter", launchLog], timeout: timeout, intent: Self.testIntent, batch: true)
    }

    var launchLog: String { directory + "/launches.log" }

    /// A small schema for the test kinds: free-form values the tests set.
    static var testIntent: [String: Any] { [
        "type": "TestConfiguration",
        "parameters": [
            ["name": "slot", "type": "integer"],
            ["name": "city", "type": "string"],
            ["name": "extra", "type": "boolean"],
        ],
    ] }

    /// Lines of `launches.log`: (now, instances in the launch).
    func launches() -> [(now: String, instances: Int)] {
        let text = (try? String(contentsOfFile: launchLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), Int(parts[1]) ?? -1)
        }
    }

    // MARK: Running

    /// Starts widgetd and waits for READY=1 on the notify socket. `clock` nil: real clock.
    /// `wrapper` runs it through another program (e.g. `unshare`), which must exec widgetd
    /// with the arguments that follow, so that the process is widgetd's own.
    func start(
        clock: String? = DaemonFixture.virtualStart, arguments: [String] = [], environment: [String: String] = [:],
        wrapper: [String] = []
    ) throws {
        let notify = try self.notify ?? NotifySocket(path: directory + "/notify.sock")
        self.notify = notify
        var args = ["--socket", socketPath, "--state-dir", stateDirectory, "--widgets-dir", widgetsDirectory, "--log-target", "stderr", "--log-level", "debug"]
        if let clock { args += ["--clock", "virtual:" + clock] }
        let command = wrapper + [TestPaths.widgetd] + args + arguments
        let process = try launch(
            command[0], Array(command.dropFirst()), environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 })
        self.process = process
        guard notify.wait(for: "READY=1") != nil else {
            throw FixtureError("widgetd did not report READY=1; log:\n\(log())")
        }
    }

    /// Starts a program with the test environment (no inherited systemd variables), its
    /// output appended to `log` (default: the daemon log).
    func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:], log: String? = nil) throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM", "WATCHDOG_USEC"] {
            env.removeValue(forKey: name)
        }
        // Providers named by a bare name (the example bundle) are found next to widgetd.
        env["PATH"] = TestPaths.binDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.merge(environment) { $1 }
        return try ChildProcess(executable, arguments, environment: env, logPath: log ?? logPath)
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus
    }

    /// SIGKILL: no chance to clean up, as in a crash.
    func crash() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// The running daemon's process id (for /proc).
    var pid: pid_t? { process?.processIdentifier }

    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    // MARK: widgetctl

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout as JSON (after `--json`).
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
    }

    /// Runs the real widgetctl against this daemon's socket.
    @discardableResult
    func ctl(_ arguments: String..., stdin: String? = nil) -> Result {
        ctl(arguments, stdin: stdin)
    }

    /// Longer than any command of the suite takes on a loaded machine (a `clock advance` over
    /// days of launches included).
    static let ctlDeadline: Double = 300

    func ctl(_ arguments: [String], stdin: String? = nil, socket: String? = nil) -> Result {
        ProgramRun.run(
            TestPaths.widgetctl, arguments, stdin: stdin, environment: ["WIDGETD_SOCKET": socket ?? socketPath],
            deadline: Self.ctlDeadline, what: "widgetctl \(arguments.joined(separator: " "))")
    }

    /// `widgetctl --json add`, returning the new id.
    func add(_ kind: String, family: String = "systemSmall", _ settings: String...) throws -> String {
        let result = ctl(["--json", "add", kind, "--family", family] + settings.flatMap { ["--set", $0] })
        guard result.status == 0, let id = result.object["id"] as? String else {
            throw FixtureError("add failed (\(result.status)): \(result.stderr)")
        }
        return id
    }
}
