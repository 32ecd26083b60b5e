import BenchSupport
import Foundation
import Glibc

/// How to start one widgetd: the real binary, its own socket, state dir, descriptors, and a
/// NOTIFY_SOCKET bound here so READY=1 can be timed.
struct DaemonSetup {
    var executable: String
    /// Sockets and the log go here.
    var runDirectory: String
    var name: String
    var stateDirectory: String
    var widgetsDirectory: String
    var configPath: String?
    /// `virtual:ISO8601`, or nil for the real clock.
    var clock: String?
    var extraEnvironment: [String: String] = [:]

    var socketPath: String { runDirectory + "/\(name).sock" }
    var notifyPath: String { runDirectory + "/\(name).notify" }
    var logPath: String { runDirectory + "/\(name).log" }

    var arguments: [String] {
        var arguments = [
            "--socket", socketPath, "--state-dir", stateDirectory, "--widgets-dir", widgetsDirectory, "--log-target", "stderr",
        ]
        if let configPath { arguments += ["--config", configPath] }
        if let clock { arguments += ["--clock", clock] }
        return arguments
    }
}

/// A widgetd under test. `start()` spawns it and waits for READY=1.
final class RunningDaemon {
    let setup: DaemonSetup
    private let notify: NotifySocket
    private(set) var process: ChildProcess?
    private let clock = ContinuousClock()

    init(_ setup: DaemonSetup) throws {
        self.setup = setup
        try FileManager.default.createDirectory(atPath: setup.runDirectory, withIntermediateDirectories: true)
        notify = try NotifySocket(path: setup.notifyPath)
    }

    deinit {
        process?.stop(grace: 5)
    }

    var pid: pid_t { process?.pid ?? -1 }

    private func spawn() throws -> ChildProcess {
        var environment = setup.extraEnvironment
        environment["NOTIFY_SOCKET"] = setup.notifyPath
        return try ChildProcess(
            executable: setup.executable, arguments: setup.arguments, environment: environment, logPath: setup.logPath)
    }

    /// Starts the daemon and returns the seconds from spawn to READY=1.
    @discardableResult
    func start(timeout: Double = 1800) throws -> Double {
        precondition(process == nil || process!.hasExited())
        notify.drain()
        let begin = clock.now
        let child = try spawn()
        process = child
        let ready = try notify.wait(for: "READY=1", process: child, timeout: timeout)
        return (ready - begin).coreSeconds
    }

    /// SIGKILL, then start again at once: the seconds from the kill to READY=1 (reaping the
    /// killed process is inside the interval, as it is for systemd's restart).
    func killAndRestart(timeout: Double = 1800) throws -> Double {
        guard let old = process else { throw ScaleError("no daemon to kill") }
        notify.drain()
        let begin = clock.now
        old.signal(SIGKILL)
        old.wait()
        let child = try spawn()
        process = child
        let ready = try notify.wait(for: "READY=1", process: child, timeout: timeout)
        return (ready - begin).coreSeconds
    }

    func memory() throws -> ProcessMemory {
        guard let process, !process.hasExited() else { throw ScaleError("widgetd is not running; log: \(setup.logPath)") }
        return try ProcessMemory(pid: process.pid)
    }

    /// RSS once it has settled: read every 0.5 s until two readings 2 s apart differ by < 1 %
    /// (at most `limit` seconds).
    func settledMemory(limit: Double = 30) throws -> ProcessMemory {
        var last = try memory()
        var waited = 0.0
        while waited < limit {
            usleep(2_000_000)
            waited += 2
            let now = try memory()
            if abs(Double(now.rss - last.rss)) < 0.01 * Double(max(last.rss, 1)) { return now }
            last = now
        }
        return last
    }

    func stop() {
        process?.stop()
    }
}

/// Descriptors and the settings file the tools write.
enum Fixtures {
    static let pushKind = "com.bench.push"
    static let dayKind = "com.bench.day"
    static let dayIntentType = "BenchTopic"

    /// A push-only kind: no "provider" (its timelines come only from push).
    static func writePushWidgets(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = """
            {
              "kind": "\(pushKind)",
              "displayName": "Bench push",
              "description": "Push-only kind of widgetd-scale (no provider)",
              "supportedFamilies": ["systemSmall", "systemMedium"]
            }

            """
        try descriptor.write(toFile: directory + "/bench-push.json", atomically: true, encoding: .utf8)
    }

    /// The day's kind: a batch provider written in sh that answers, for each instance of the
    /// launch, four hourly entries from `now` with relevance (score from the instance id and
    /// the hour; some <= 0), policy atEnd (so every instance reloads every 3 hours). An integer
    /// `topic` parameter lets donations match instances. Each launch appends its instance count
    /// to `launchLog`.
    static func writeDayWidgets(into directory: String, launchLog: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        let descriptor = """
            {
              "kind": "\(dayKind)",
              "displayName": "Bench day",
              "description": "widgetd-scale day: hourly entries with relevance, atEnd",
              "supportedFamilies": ["systemSmall", "systemMedium"],
              "provider": {"exec": ["./providers/bench-day"], "batch": true, "timeout": 60},
              "intent": {
                "type": "\(dayIntentType)",
                "parameters": [
                  {"name": "topic", "title": "Topic", "type": "integer", "default": 0, "min": 0, "max": 100000}
                ],
                "supportedCombinations": [["topic"]]
              }
            }

            """
        try descriptor.write(toFile: directory + "/bench-day.json", atomically: true, encoding: .utf8)
        let script = #"""
            #!/bin/sh
            # widgetd-scale day provider (exec protocol, "batch": true).
            # timeline: one Timeline per requested instance: entries at now, +1h, +2h, +3h with
            # relevance {score, duration 3600}, the score derived from the instance id and the
            # hour (about 1 in 12 is <= 0); policy atEnd. Dates come from the request's "now".
            set -eu
            export LC_ALL=C
            verb=${1:-}
            req=$(cat)
            now=$(printf '%s\n' "$req" | tr '\n' ' ' |
                  sed -n 's/.*"now"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
            [ -n "$now" ] || { echo "bench-day: request has no \"now\"" >&2; exit 1; }
            t=$(date -u -d "$now" +%s)
            iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
            case $verb in
            timeline)
                d0=$(iso "$t"); d1=$(iso $((t + 3600))); d2=$(iso $((t + 7200))); d3=$(iso $((t + 10800)))
                printf '%s\n' "$req" | awk -v d0="$d0" -v d1="$d1" -v d2="$d2" -v d3="$d3" -v hour=$((t / 3600)) \
                    -v logfile="__LAUNCH_LOG__" '
                { req = req $0 }
                END {
                    # The first "instance" key is the top-level one; the others are the elements of "instances".
                    n = split(req, parts, /"instance"[ ]*:[ ]*"/)
                    count = n - 2
                    if (count < 1) count = 1
                    printf "{\"timelines\":["
                    for (k = 0; k < count; k++) {
                        id = (n >= 3) ? substr(parts[k + 3], 1, 8) : "00000000"
                        seed = 0
                        for (c = 1; c <= 8; c++) seed = (seed * 16 + index("0123456789abcdef", substr(id, c, 1)) - 1) % 1000003
                        if (k) printf ","
                        printf "{\"entries\":["
                        for (e = 0; e < 4; e++) {
                            score = (seed * 7 + (hour + e) * 31) % 120 - 10
                            date = (e == 0) ? d0 : (e == 1) ? d1 : (e == 2) ? d2 : d3
                            if (e) printf ","
                            printf "{\"date\":\"%s\",\"content\":{\"value\":%d,\"id\":\"%s\"},\"relevance\":{\"score\":%d,\"duration\":3600}}", date, (seed + e) % 1000, id, score
                        }
                        printf "],\"policy\":\"atEnd\"}"
                    }
                    printf "]}\n"
                    print count >> logfile
                }'
                ;;
            snapshot|placeholder)
                printf '{"date":"%s","content":{"value":0}}\n' "$(iso "$t")"
                ;;
            options)
                echo '{"options":[]}'
                ;;
            *)
                echo "usage: bench-day timeline|snapshot|placeholder|options < request.json" >&2
                exit 2
                ;;
            esac

            """#.replacingOccurrences(of: "__LAUNCH_LOG__", with: launchLog)
        let scriptPath = directory + "/providers/bench-day"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scriptPath)
    }

    /// Settings for the day: the default budget written out (70 a day, 5 min apart, enough for
    /// a reload every 3 h), and answers up to 64 MiB (a launch may serve all 10,000 instances).
    /// `restart` and `memory` load a seeded state of up to 1,000,000 instances, above the
    /// default max-instances (100,000). widgetd loads a state over its limits whole (and
    /// warns), so the figures would not change; the benchmark states its limit anyway.
    static func writeScaleConfig(to path: String, instances: Int) throws {
        let text = """
            # widgetd-scale restart and memory: the defaults, with room for the seeded state
            [limits]
            max-instances = \(max(100_000, instances))

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func writeDayConfig(to path: String) throws {
        let text = """
            # widgetd-scale day
            [budget]
            daily-limit = 70
            min-spacing = 5m

            [scheduler]
            coalescing-window = 60s

            [providers]
            timeout = 60s
            max-concurrent = 4
            max-answer-bytes = 67108864

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
