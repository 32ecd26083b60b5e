import ArgumentParser
import BenchSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `widgetd-load wakeups`: how often the daemon's threads wake when little or nothing is due
/// (issue 13: no wake-up without work).
///
/// A wake-up is a context switch of any thread of the daemon: a thread that sleeps, is woken
/// and sleeps again switches out once. The count is `perf stat -e context-switches -p PID`
/// over the window, whose counters follow threads created during it and keep their counts
/// when they exit; the sum over `/proc/PID/task/*/status`, sampled through the window so that
/// threads that come and go are seen, is the cross-check and names the threads that woke.
/// Nothing talks to the daemon's socket during a window.
///
/// - idle: no instances; the target is no wake-up at all.
/// - instances: push-only instances (no provider, so nothing is launched) whose entry changes
///   land on a known set of instants over the next 24 h (`WakeupPlan`); the lower bound of a
///   window is the deadline instants inside it, plus one, and the target is to stay within it.
struct WakeupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wakeups",
        abstract: "Wake-ups (context switches of every daemon thread) with nothing due, and with push-only instances against their deadlines.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Which windows to measure: idle, instances, or both (comma-separated).")
    var workloads = "idle,instances"

    @Option(name: .customLong("idle-seconds"), help: "Length of the idle window.")
    var idleSeconds: Double = 60

    @Option(name: .customLong("settle-seconds"), help: "Seconds after READY=1 (idle) or after the last set-up request (instances) before a window may start; not counted.")
    var settleSeconds: Double = 5

    @Option(help: "Push-only instances of the instances window.")
    var instances = 10_000

    @Option(help: "Future timeline entries per instance, at random grid instants over the next 24 h.")
    var entries = 4

    @Option(name: .customLong("deadline-spacing"), help: "Seconds between the grid instants every entry date lies on; more than the coalescing window.")
    var deadlineSpacing = 120

    @Option(name: .customLong("window-minutes"), help: "Length of the instances window (it starts half-way between two grid instants).")
    var windowMinutes: Double = 10

    @Option(help: "Connections that add instances and push their timelines in parallel during set-up.")
    var connections = 16

    @Option(name: .customLong("sample-interval"), help: "Seconds between samples of /proc/PID/task during a window.")
    var sampleInterval: Double = 0.2

    @Flag(name: .customLong("no-perf"), help: "Do not use perf: the /proc sum is the figure.")
    var noPerf = false

    /// The daemon's coalescing window, written into its config so the bound does not depend
    /// on a default.
    static let coalescingWindow = 60
    static let kind = "bench.wake"

    private var chosen: Set<String> { Set(workloads.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }

    func validate() throws {
        guard !chosen.isEmpty, chosen.isSubset(of: ["idle", "instances"]) else {
            throw ValidationError("--workloads: idle, instances or both")
        }
        guard idleSeconds > 0, windowMinutes > 0, settleSeconds >= 0, sampleInterval > 0 else {
            throw ValidationError("durations must be positive")
        }
        guard instances > 0, entries > 0, connections > 0, connections <= 200 else {
            throw ValidationError("--instances and --entries must be positive, --connections in 1...200")
        }
        // Wider than the coalescing window, so no two grid instants share a wake-up and the
        // bound is exact; dividing the day, so the grid covers it evenly.
        guard deadlineSpacing > Self.coalescingWindow, 86_400 % deadlineSpacing == 0 else {
            throw ValidationError("--deadline-spacing must exceed the coalescing window (\(Self.coalescingWindow) s) and divide 86400")
        }
        guard windowMinutes * 60 < 20 * 3600 else { throw ValidationError("--window-minutes: the window must fit in the day planned") }
    }

    func run() throws {
        let binary = try common.widgetdBinary()
        let work = try common.makeWorkDir("wakeups")
        var succeeded = false
        defer { common.cleanUp(work, succeeded: succeeded) }
        progress("widgetd-load wakeups: work dir \(work.path) [\(fileSystemType(of: work.path))], daemon \(binary)")

        let widgets = work.path + "/widgets"
        // A kind without "provider": its timelines come only from push, so no deadline of the
        // workload can start a launch (which wakes the daemon many times by nature).
        try writeFile(widgets + "/\(Self.kind).json", """
            {
              "kind": "\(Self.kind)",
              "displayName": "Bench wake-ups",
              "description": "widgetd-load wakeups: push-only",
              "supportedFamilies": ["systemSmall"]
            }

            """)
        let config = work.path + "/widgetd.conf"
        try writeFile(config, """
            # widgetd-load wakeups: the coalescing window the bound assumes
            [scheduler]
            coalescing-window = \(Self.coalescingWindow)s
            """)

        if chosen.contains("idle") {
            try measureIdle(binary: binary, work: work.path, widgets: widgets, config: config)
        }
        if chosen.contains("instances") {
            try measureInstances(binary: binary, work: work.path, widgets: widgets, config: config)
        }
        succeeded = true
    }

    // MARK: idle

    private func measureIdle(binary: String, work: String, widgets: String, config: String) throws {
        let directory = work + "/idle"
        let daemon = try startDaemon(binary: binary, directory: directory, widgets: widgets, config: config)
        let ready = monotonicSeconds()
        defer { daemon.stop() }
        progress("idle: widgetd ready (pid \(daemon.pid)), no instances; settling \(fixed(settleSeconds, 0)) s, then counting \(fixed(idleSeconds, 0)) s")
        let perf = startPerf(daemon, directory: directory)
        sleep(until: ready + settleSeconds)
        let counted = try count(daemon, seconds: idleSeconds, perf: perf.counter, perfProblem: perf.problem)
        let problems = daemon.logProblems()

        var notes = "widgetd on a temporary socket and state dir, real clock, no instances, "
        notes += "\(fixed(counted.seconds, 1)) s counted from \(fixed(settleSeconds, 0)) s after READY=1; \(counted.summary)"
        notes += "; the daemon ran without WATCHDOG_USEC, as under the shipped unit (no WatchdogSec=)"
        if problems.count > 0 { notes += "; \(problems.count) warning/error lines in the daemon log" }
        try Figure(
            id: "wakeups.idle",
            figure: "wake-ups in \(fixed(idleSeconds, 0)) s with nothing due (context switches of every daemon thread)",
            widgetd: Double(counted.wakeups), unit: "wake-ups", target: "≤ 0 wake-ups", notes: notes
        ).measuring(binary).record(to: common.figures)
    }

    // MARK: instances

    private func measureInstances(binary: String, work: String, widgets: String, config: String) throws {
        let directory = work + "/instances"
        let daemon = try startDaemon(binary: binary, directory: directory, widgets: widgets, config: config)
        defer { daemon.stop() }
        let plan = WakeupPlan(
            instances: instances, entries: entries, spacing: deadlineSpacing,
            origin: WakeupPlan.origin(now: Date(), spacing: deadlineSpacing))
        let used = plan.entriesBySlot
        progress("instances: widgetd ready (pid \(daemon.pid)); \(instances) push-only instances, \(entries) entries each on \(used.count) of \(plan.slotCount) instants \(deadlineSpacing) s apart from \(WakeupPlan.iso(plan.date(ofSlot: 0)))")

        let setup = try setUp(plan, socket: daemon.socketPath)
        // The schedule as the daemon sees it, read before the window (the window itself must
        // not touch the socket): its next wake-up must be the plan's next deadline.
        let asked = Date()
        let status = try LoadClient(path: daemon.socketPath).call("status") as? [String: Any]
        let nextWakeup = status?["nextWakeup"] as? String ?? "none"
        let expected = plan.nextDeadline(after: asked).map(WakeupPlan.iso) ?? "none"
        let held = status?["instances"] as? Int ?? -1
        guard held == instances else { throw LoadError("status counts \(held) instances, \(instances) were added") }
        let lastRequest = monotonicSeconds()
        progress("  set up in \(fixed(setup.seconds, 1)) s (\(connections) connections); status: next wake-up \(nextWakeup) (plan: \(expected))")

        let perf = startPerf(daemon, directory: directory)
        sleep(until: lastRequest + settleSeconds)
        let windowSeconds = windowMinutes * 60
        let start = plan.midpoint(atOrAfter: Date())
        guard start.addingTimeInterval(windowSeconds) < plan.date(ofSlot: plan.slotCount) else {
            throw LoadError("the window would end after the day the plan covers")
        }
        progress("  counting \(fixed(windowSeconds, 0)) s from \(WakeupPlan.iso(start)) (in \(fixed(start.timeIntervalSinceNow, 0)) s)")
        sleep(until: monotonicSeconds() + start.timeIntervalSinceNow)
        let counted = try count(daemon, seconds: windowSeconds, perf: perf.counter, perfProblem: perf.problem)
        let deadlines = plan.deadlines(from: counted.start, to: counted.start.addingTimeInterval(windowSeconds))
        let problems = daemon.logProblems()

        // Both sides scaled to an hour by the same factor, so the ratio is the window's.
        let perHour = 3600 / windowSeconds
        let bound = deadlines.instants.count + 1
        let measured = Double(counted.wakeups) * perHour
        progress("  \(counted.wakeups) wake-ups in the window, \(deadlines.instants.count) deadline instants (\(deadlines.entryChanges) entry changes): bound \(bound)")

        var notes = "\(grouped(instances)) instances of a push-only kind (no provider: nothing is launched), real clock, each pushed a "
        notes += "timeline of one past entry and \(entries) future ones at random instants of a grid \(deadlineSpacing) s apart over the "
        notes += "24 h from \(WakeupPlan.iso(plan.date(ofSlot: 0))) (\(used.count) of \(plan.slotCount) instants used), policy after(its last entry date): "
        notes += "a push-only kind's `after` is no deadline (push's answer: nextReload \(setup.nextReload)) and lies on an entry date anyway, so the "
        notes += "deadlines are the entry changes; coalescing window \(Self.coalescingWindow) s < spacing, so none coalesce and the bound is exact. "
        notes += "Window \(fixed(windowSeconds / 60, 1)) min from \(WakeupPlan.clockTime(counted.start)) UTC, half-way between grid instants, "
        notes += "holding deadline instants: \(deadlines.instants.count) (\(deadlines.entryChanges) entry changes"
        if !deadlines.instants.isEmpty { notes += " at " + deadlines.instants.map(WakeupPlan.clockTime).joined(separator: ", ") }
        notes += "), so the bound is \(bound) in the window (instants + 1), \(Figure.formatNumber(Double(bound) * perHour))/h; "
        notes += "measured \(counted.wakeups) in the window, \(Figure.formatNumber(measured))/h (both scaled by the same factor); "
        notes += "\(counted.summary); before the window: status next wake-up \(nextWakeup) "
        notes += nextWakeup == expected ? "(the plan's next deadline)" : "(the plan's next deadline is \(expected): the bound may be off)"
        notes += String(format: "; set-up %.1f s (add + push over %d connections), window started %.0f s after the last request",
                        setup.seconds, connections, counted.begin - lastRequest)
        if problems.count > 0 { notes += "; \(problems.count) warning/error lines in the daemon log" }
        try Figure(
            id: "wakeups.instances",
            figure: "wake-ups per hour with \(grouped(instances)) instances, entry changes spread over the day (against distinct deadlines + 1)",
            widgetd: measured, reference: Double(bound) * perHour, unit: "wake-ups/h", target: "≤ 1.0×", notes: notes
        ).measuring(binary).record(to: common.figures)
    }

    /// Adds the plan's instances and pushes their timelines over `connections` connections at
    /// once (one request in flight on each, so their commits share transactions).
    private func setUp(_ plan: WakeupPlan, socket: String) throws -> (seconds: Double, nextReload: String) {
        let shared = SetupProgress()
        let group = DispatchGroup()
        let begin = monotonicSeconds()
        let total = plan.instances.count
        let lanes = min(connections, total)
        for lane in 0..<lanes {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    let client = try LoadClient(path: socket)
                    for index in stride(from: lane, to: total, by: lanes) {
                        if shared.state.withLock({ $0.failure != nil }) { return }
                        let added = try client.call("add", ["kind": Self.kind, "family": "systemSmall"])
                        guard let id = (added as? [String: Any])?["id"] as? String else { throw LoadError("add: no id in \(added)") }
                        let pushed = try client.call("push", ["id": id, "timeline": plan.timeline(index)]) as? [String: Any]
                        let reload = pushed?["nextReload"].map { $0 is NSNull ? "null" : "\($0)" } ?? "none"
                        let done = shared.state.withLock { state -> Int in
                            if state.nextReload == nil { state.nextReload = reload }
                            state.done += 1
                            return state.done
                        }
                        if done % 2000 == 0 { progress(String(format: "  %d instances added and pushed (%.1f s)", done, monotonicSeconds() - begin)) }
                    }
                } catch {
                    shared.state.withLock { if $0.failure == nil { $0.failure = "\(error)" } }
                }
            }
            thread.name = "setup-\(lane)"
            thread.start()
        }
        group.wait()
        let result = shared.state.withLock { $0 }
        if let failure = result.failure { throw LoadError("set-up: \(failure)") }
        return (monotonicSeconds() - begin, result.nextReload ?? "absent")
    }

    /// What the set-up threads share: a Mutex cannot be captured by their closures itself.
    private final class SetupProgress: Sendable {
        struct State {
            var done = 0
            var failure: String?
            var nextReload: String?
        }
        let state = Mutex(State())
    }

    // MARK: counting

    /// What one window counted.
    struct Count {
        var start: Date
        /// Monotonic seconds at the start.
        var begin: Double
        var seconds: Double
        var perf: Int?
        var perfText: String
        var rows: [ThreadSwitchWindow.Row]
        var samples: Int
        var cpuSeconds: Double?

        var procTotal: Int { rows.reduce(0) { $0 + $1.total } }
        /// perf's count when it ran, else the /proc sum.
        var wakeups: Int { perf ?? procTotal }

        /// For the notes: where the figure comes from, the cross-check, and every thread.
        var summary: String {
            var text: String
            if let perf {
                text = "figure: perf stat -e context-switches -p PID, \(perf); /proc cross-check \(procTotal)"
            } else {
                text = "figure: the /proc sum, \(procTotal) (perf: \(perfText))"
            }
            let voluntary = rows.reduce(0) { $0 + $1.voluntary }
            text += " (\(voluntary) voluntary, \(procTotal - voluntary) preempted) over \(rows.count) threads, sampled \(samples) times"
            let woke = rows.filter { $0.total > 0 }
            if woke.isEmpty {
                text += "; no thread switched"
            } else {
                let shown = woke.prefix(20).map { row -> String in
                    var flags: [String] = []
                    if row.nonvoluntary > 0 { flags.append("\(row.nonvoluntary) preempted") }
                    if row.bornInWindow { flags.append("born in the window") }
                    if !row.aliveAtEnd { flags.append("exited") }
                    return "\(row.name) [tid \(row.tid)] \(row.total)" + (flags.isEmpty ? "" : " (" + flags.joined(separator: ", ") + ")")
                }
                text += "; threads that switched: " + shown.joined(separator: ", ")
                if woke.count > shown.count { text += ", and \(woke.count - shown.count) more" }
            }
            let quiet = rows.filter { $0.total == 0 }
            if !quiet.isEmpty {
                var names: [String: Int] = [:]
                for row in quiet { names[row.name, default: 0] += 1 }
                text += "; no switch: " + names.sorted { $0.key < $1.key }.map { $0.value > 1 ? "\($0.key) ×\($0.value)" : $0.key }
                    .joined(separator: ", ")
            }
            if let cpuSeconds { text += String(format: "; daemon CPU in the window %.0f ms", cpuSeconds * 1000) }
            return text
        }
    }

    /// Counts the daemon's context switches from now for `seconds`. perf, when it runs, was
    /// attached before (its start-up is not in the window) and is switched on here.
    private func count(_ daemon: LoadDaemon, seconds: Double, perf: PerfSwitchCounter?, perfProblem: String?) throws -> Count {
        var perfText = perfProblem ?? "not used"
        let enabled = perf?.enable() ?? false
        if perf != nil && !enabled { perfText = "did not acknowledge enable" }
        let start = Date()
        let begin = monotonicSeconds()
        let cpuBefore = daemon.cpuSeconds
        let window = ThreadSwitchWindow(pid: daemon.pid, interval: sampleInterval)
        sleep(until: begin + seconds)
        let (rows, samples) = window.finish()
        let end = monotonicSeconds()
        let cpu = cpuBefore.flatMap { before in daemon.cpuSeconds.map { $0 - before } }
        var perfCount: Int?
        if let perf {
            let disabled = perf.disable()
            let result = perf.finish()
            if enabled && disabled {
                perfCount = result.count
                perfText = result.text
            } else if enabled {
                perfText = "did not acknowledge disable (\(result.text))"
            }
        }
        guard daemon.isRunning else { throw LoadError("widgetd ended during the window:\n\(daemon.logTail())") }
        progress("  \(perfCount.map { "perf: \($0) context switches; " } ?? "perf: \(perfText); ")/proc: \(rows.reduce(0) { $0 + $1.total }) over \(rows.count) threads in \(fixed(end - begin, 1)) s")
        return Count(start: start, begin: begin, seconds: end - begin, perf: perfCount, perfText: perfText, rows: rows, samples: samples, cpuSeconds: cpu)
    }

    private func startPerf(_ daemon: LoadDaemon, directory: String) -> (counter: PerfSwitchCounter?, problem: String?) {
        guard !noPerf else { return (nil, "--no-perf") }
        do {
            return (try PerfSwitchCounter(attachTo: daemon.pid, workDir: directory), nil)
        } catch {
            progress("  perf unavailable, the /proc sum is the figure: \(error)")
            return (nil, "\(error)")
        }
    }

    private func startDaemon(binary: String, directory: String, widgets: String, config: String) throws -> LoadDaemon {
        var options = LoadDaemon.Options(binary: binary, workDir: directory + "/daemon", widgetsDirs: [widgets], config: config)
        options.logLevel = common.logLevel
        return try LoadDaemon.start(options)
    }

    /// Sleeps until the monotonic clock reaches `deadline` (at once if it has).
    private func sleep(until deadline: Double) {
        while true {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return }
            Thread.sleep(forTimeInterval: min(remaining, 1))
        }
    }
}

private func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

private func grouped(_ value: Int) -> String { Figure.formatNumber(Double(value)) }
