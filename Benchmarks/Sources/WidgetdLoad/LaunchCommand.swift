import ArgumentParser
import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `widgetd-load launch`: wall time per merged provider batch through the daemon, against
/// spawning the same provider binary by hand with the same request.
///
/// One batch: `reloadTimelines` of the kind on one connection, then wait on a second
/// (subscribed) connection until `reload` events have named every instance. That covers
/// the request's commit, the scheduler's wake-up, the launch, the provider, the commit of
/// the new timelines and the event. The reference is `posix_spawn` (three pipes, own process
/// group, as the daemon does) + write the captured request + read stdout/stderr to EOF +
/// `waitpid`, with no daemon.
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Provider launch overhead per merged batch, against spawning the provider directly.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Batches to time (and reference launches).")
    var batches = 200

    @Option(help: "Batches before timing (not counted), for both sides.")
    var warmup = 10

    @Option(help: "Instances of the batch-capable kind (all served by each launch).")
    var instances = 5

    @Option(help: "Provider: c (a tiny compiled binary) or sh (a POSIX sh script).")
    var provider = "c"

    @Option(name: .customLong("pid-file"), help: "Write the daemon's pid here once it is set up (for attaching a profiler).")
    var pidFile: String?

    @Option(name: .customLong("pause-before"), help: "Seconds to wait after setup, before the first batch (time to attach a profiler).")
    var pauseBefore: Double = 0

    static let kind = "bench.launch"

    func validate() throws {
        guard batches > 0, instances > 0, warmup >= 0 else { throw ValidationError("counts must be positive") }
        guard ["c", "sh"].contains(provider) else { throw ValidationError("--provider: c or sh") }
    }

    func run() throws {
        let binary = try common.widgetdBinary()
        let work = try common.makeWorkDir("launch")
        var succeeded = false
        defer { common.cleanUp(work, succeeded: succeeded) }
        let fsType = fileSystemType(of: work.path)
        let loadBefore = loadAverage()
        progress("widgetd-load launch: work dir \(work.path) [\(fsType)], daemon \(binary)")

        let widgets = work.path + "/widgets"
        try FileManager.default.createDirectory(atPath: widgets + "/providers", withIntermediateDirectories: true)
        let providerPath = widgets + "/providers/bench-provider"
        var providerText: String
        if provider == "c" {
            let compiler = try BenchProviders.compileC(to: providerPath)
            providerText = "a tiny C program (\((compiler as NSString).lastPathComponent) -O2)"
        } else {
            try BenchProviders.installShell(at: providerPath)
            providerText = "a POSIX sh script"
        }
        try writeFile(
            widgets + "/\(Self.kind).json",
            BenchProviders.descriptor(kind: Self.kind, exec: ["./providers/bench-provider"], batch: true))
        // Budget out of the way: --no-budget, and no minimum spacing.
        let config = work.path + "/widgetd.conf"
        try writeFile(config, """
            # widgetd-load launch: budget off (also --no-budget), no spacing
            [budget]
            min-spacing = 0
            [providers]
            max-concurrent = 4
            """)
        let capture = work.path + "/captured-request.json"

        var options = LoadDaemon.Options(binary: binary, workDir: work.path + "/daemon", widgetsDirs: [widgets], config: config)
        options.extraArguments = ["--no-budget"]
        options.logLevel = common.logLevel
        options.environment = ["WIDGETD_LOAD_CAPTURE": capture]
        let daemon = try LoadDaemon.start(options)
        var daemonStopped = false
        defer { if !daemonStopped { daemon.stop() } }
        progress("widgetd ready (pid \(daemon.pid)); \(instances) instances of a batch kind, provider: \(providerText)")

        let events = try LoadClient(path: daemon.socketPath)
        try events.call("subscribe")
        let control = try LoadClient(path: daemon.socketPath)
        var ids = Set<String>()
        for index in 0..<instances {
            let result = try control.call(
                "add", ["kind": Self.kind, "family": index % 2 == 0 ? "systemSmall" : "systemMedium"])
            guard let id = (result as? [String: Any])?["id"] as? String else { throw LoadError("add: no id in \(result)") }
            ids.insert(id)
        }
        _ = try waitForBatch(ids, events: events, timeout: 60)
        // The first loads may have run as several launches; one merged reload now, so the
        // captured request (the first one the provider saw after this point) serves them all.
        try? FileManager.default.removeItem(atPath: capture)
        if let pidFile { try writeFile(pidFile, "\(daemon.pid)\n") }
        if pauseBefore > 0 {
            progress("pausing \(pauseBefore) s (pid \(daemon.pid))")
            Thread.sleep(forTimeInterval: pauseBefore)
        }

        var samples: [Int64] = []
        var launchesPerBatch: [Int] = []
        let cpuBefore = daemon.cpuSeconds
        for round in 0..<(warmup + batches) {
            let start = monotonicNanoseconds()
            let result = try control.call("reloadTimelines", ["kinds": [Self.kind]]) as? [String: Any]
            let named = Set(result?["instances"] as? [String] ?? [])
            guard named == ids else { throw LoadError("reloadTimelines named \(named.sorted()), expected \(ids.sorted())") }
            let launches = try waitForBatch(ids, events: events, timeout: 60)
            let end = monotonicNanoseconds()
            if round >= warmup {
                samples.append(end - start)
                launchesPerBatch.append(launches)
            }
        }
        let daemonCPU = cpuBefore.flatMap { before in daemon.cpuSeconds.map { $0 - before } }
        guard daemon.isRunning else { throw LoadError("widgetd ended during the run:\n\(daemon.logTail())") }
        let problems = daemon.logProblems()
        daemon.stop()
        daemonStopped = true
        if problems.count > 0 {
            progress("note: \(problems.count) warning/error lines in the daemon log, e.g.:\n  " + problems.first.joined(separator: "\n  "))
        }

        guard let request = FileManager.default.contents(atPath: capture) else {
            throw LoadError("the provider saved no request to \(capture)")
        }
        // The reference: the same binary, the same request, the same environment, no daemon.
        var environment = ProcessInfo.processInfo.environment
        environment["WIDGETD_LOAD_CAPTURE"] = capture
        var reference: [Int64] = []
        for round in 0..<(warmup + batches) {
            let start = monotonicNanoseconds()
            let answer = try Self.spawnProvider([providerPath, "timeline"], request: request, environment: environment)
            let end = monotonicNanoseconds()
            guard answer.contains("\"entries\"") else { throw LoadError("provider answered: \(answer)") }
            if round >= warmup { reference.append(end - start) }
        }

        let daemonStats = LoadStatistics(samples)
        let referenceStats = LoadStatistics(reference)
        let merged = launchesPerBatch.filter { $0 == 1 }.count
        progress(String(
            format: "widgetd: median %.3f ms per batch (p90 %.3f, min %.3f); reference spawn+exchange+wait: median %.3f ms (p90 %.3f, min %.3f)",
            daemonStats.median / 1e6, daemonStats.percentile(90) / 1e6, daemonStats.min / 1e6,
            referenceStats.median / 1e6, referenceStats.percentile(90) / 1e6, referenceStats.min / 1e6))
        var notes = "\(batches) sequential batches after \(warmup) warm-up, each: reloadTimelines of a kind with \"batch\": true and \(instances) instances, "
        notes += "timed from sending the request until `reload` events have named every instance (the launch starts as the request is applied, "
        notes += "while it is stored; the event goes out when the answer is applied, before its timeline's commit); --no-budget, min-spacing 0; provider: \(providerText); "
        notes += "\(merged) of \(batches) batches were one launch"
        if merged < batches { notes += " (the others were split: \(Set(launchesPerBatch).sorted().map(String.init).joined(separator: "/")) launches)" }
        notes += String(
            format: "; widgetd p90 %.3f ms, min %.3f ms; reference (posix_spawn with three pipes and its own process group, write the captured request, read to EOF, waitpid; same binary, no daemon) median %.3f ms, p90 %.3f ms, min %.3f ms",
            daemonStats.percentile(90) / 1e6, daemonStats.min / 1e6, referenceStats.median / 1e6,
            referenceStats.percentile(90) / 1e6, referenceStats.min / 1e6)
        if let daemonCPU {
            notes += String(format: "; daemon CPU %.2f ms per batch", daemonCPU / Double(warmup + batches) * 1e3)
        }
        notes += "; state on \(fsType); 1-min load average before the run \(loadBefore), after \(loadAverage())."
        try Figure(
            id: "launch.batch", figure: "provider launch overhead per merged batch (wall time, median)",
            widgetd: daemonStats.median / 1e6, reference: referenceStats.median / 1e6, unit: "ms", target: "≤ 1.5×",
            notes: notes
        ).measuring(binary).record(to: common.figures)
        succeeded = true
    }

    /// Reads events until `reload` events have named every id; returns how many `reload`
    /// events (launches) that took. A `reloadFailed` is an error.
    private func waitForBatch(_ ids: Set<String>, events: LoadClient, timeout: Double) throws -> Int {
        var pending = ids
        var launches = 0
        let deadline = monotonicSeconds() + timeout
        while !pending.isEmpty {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0, let event = try events.nextNotification(timeout: remaining) else {
                throw LoadError("no reload event for \(pending.sorted()) within \(Int(timeout)) s")
            }
            switch event["type"] as? String {
            case "reload":
                launches += 1
                for id in event["instances"] as? [String] ?? [] { pending.remove(id) }
            case "reloadFailed":
                throw LoadError("provider failed: \(event["error"] ?? "?")")
            default:
                break
            }
        }
        return launches
    }

    /// What the daemon does for one launch, without the daemon: spawn with stdin, stdout and
    /// stderr pipes in a process group of its own, write the request, read both outputs to
    /// EOF, reap. Returns stdout.
    static func spawnProvider(_ argv: [String], request: Data, environment: [String: String]) throws -> String {
        var input: [CInt] = [-1, -1]
        var output: [CInt] = [-1, -1]
        var errors: [CInt] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            throw LoadError("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in input + output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try LoadProcess.spawn(
                argv, environment: environment, stdin: input[0], stdout: output[1], stderr: errors[1], newProcessGroup: true)
        } catch {
            for fd in input + output + errors { close(fd) }
            throw error
        }
        close(input[0])
        close(output[1])
        close(errors[1])
        request.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(input[1], raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    break
                }
                offset += count
            }
        }
        close(input[1])
        var out: [UInt8] = []
        var open = [output[0], errors[0]]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 15_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                kill(-pid, SIGKILL)
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == output[0] { out += buffer[0..<count] }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        for fd in open { close(fd) }
        let end = LoadProcess.wait(pid, timeout: nil)
        guard end == .exited(0) else { throw LoadError("provider: \(end.map { "\($0)" } ?? "?")") }
        return String(decoding: out, as: UTF8.self)
    }
}
