import ArgumentParser
import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `widgetd-load rpc`: request throughput and p99 latency over the control socket, against
/// Redis in the same run.
///
/// - reload: `reloadTimelines` of one kind per request (kinds taken in turn), with the budget
///   on as installed, so after the first reload of each instance the requests are deferred
///   and persisted, not launched; reference `redis-benchmark -t zadd` on a memory-only Redis.
/// - donate: `donate` (answered after its SQLite commit); reference the same on Redis with
///   `appendonly yes`, `appendfsync always`.
struct RPCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpc",
        abstract: "Request throughput and p99 latency over the control socket, against Redis.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Concurrent connections (each with one request in flight).")
    var connections = 50

    @Option(help: "Requests per workload and server (also redis-benchmark -n).")
    var requests = 20000

    @Option(help: "Run each widgetd workload this long instead of a request count (redis-benchmark still uses --requests).")
    var seconds: Double?

    @Option(help: "Requests sent before measuring, per workload (not counted).")
    var warmup = 1000

    @Option(help: "Kinds to set up (all served by one sh provider).")
    var kinds = 10

    @Option(name: .customLong("instances-per-kind"), help: "Instances of each kind.")
    var instancesPerKind = 10

    @Option(help: "Workloads to run, comma-separated: reload, donate.")
    var workloads = "reload,donate"

    @Option(name: .customLong("redis-server"), help: "redis-server binary (default: on PATH).")
    var redisServer: String?

    @Option(name: .customLong("redis-benchmark"), help: "redis-benchmark binary (default: on PATH).")
    var redisBenchmark: String?

    @Flag(name: .customLong("no-reference"), help: "Measure widgetd only and write no figures (for profiling runs).")
    var noReference = false

    @Option(name: .customLong("pid-file"), help: "Write the daemon's pid here once it is set up (for attaching a profiler).")
    var pidFile: String?

    @Option(name: .customLong("pause-before"), help: "Seconds to wait after setup, before the first workload (time to attach a profiler).")
    var pauseBefore: Double = 0

    static let intentType = "BenchLoad"
    static let cities = 10

    func validate() throws {
        guard connections > 0, requests > 0, kinds > 0, instancesPerKind > 0, warmup >= 0 else {
            throw ValidationError("counts must be positive")
        }
        for name in selectedWorkloads where !["reload", "donate"].contains(name) {
            throw ValidationError("--workloads: unknown workload '\(name)' (reload, donate)")
        }
    }

    var selectedWorkloads: [String] {
        workloads.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func kindName(_ index: Int) -> String { String(format: "bench.load.k%02d", index) }

    func run() throws {
        let binary = try common.widgetdBinary()
        var redisServerPath: String?
        var redisBenchmarkPath: String?
        if !noReference {
            redisServerPath = redisServer ?? LoadProcess.which("redis-server", extra: ["/usr/sbin", "/usr/bin"])
            redisBenchmarkPath = redisBenchmark ?? LoadProcess.which("redis-benchmark")
            guard redisServerPath != nil, redisBenchmarkPath != nil else {
                throw ValidationError("redis-server and redis-benchmark are needed for the reference (apt-get install redis-server redis-tools), or pass --no-reference")
            }
        }
        let work = try common.makeWorkDir("rpc")
        var succeeded = false
        defer { common.cleanUp(work, succeeded: succeeded) }
        let fsType = fileSystemType(of: work.path)
        let loadBefore = loadAverage()
        progress("widgetd-load rpc: work dir \(work.path) [\(fsType)], daemon \(binary)")

        // Descriptors: `kinds` kinds, one sh provider for all, batch-capable, with an intent
        // that donations match (parameter "city").
        let widgets = work.path + "/widgets"
        try FileManager.default.createDirectory(atPath: widgets + "/providers", withIntermediateDirectories: true)
        try BenchProviders.installShell(at: widgets + "/providers/bench-provider")
        for index in 0..<kinds {
            try writeFile(
                widgets + "/\(kindName(index)).json",
                BenchProviders.descriptor(
                    kind: kindName(index), exec: ["./providers/bench-provider"], batch: true, intentType: Self.intentType))
        }
        // The defaults of a real installation, written out: budget on (70/day, 5 min spacing),
        // with room for every donation the run makes.
        let config = work.path + "/widgetd.conf"
        try writeFile(config, """
            # widgetd-load rpc: the shipped defaults
            [budget]
            daily-limit = 70
            min-spacing = 5m
            [providers]
            max-concurrent = 4
            # The donate workload records more donations than the default max-donations
            # (10,000) retains; room for all of them keeps the figure comparable with runs
            # made before retention (each donation past the limit also deletes the oldest).
            [limits]
            max-donations = 1000000
            """)

        var options = LoadDaemon.Options(binary: binary, workDir: work.path + "/daemon", widgetsDirs: [widgets], config: config)
        options.logLevel = common.logLevel
        let daemon = try LoadDaemon.start(options)
        var daemonStopped = false
        defer { if !daemonStopped { daemon.stop() } }
        progress("widgetd ready (pid \(daemon.pid)); placing \(kinds * instancesPerKind) instances")

        try setUpInstances(socket: daemon.socketPath)
        if let pidFile { try writeFile(pidFile, "\(daemon.pid)\n") }
        if pauseBefore > 0 {
            progress("pausing \(pauseBefore) s (pid \(daemon.pid))")
            Thread.sleep(forTimeInterval: pauseBefore)
        }

        var measured: [String: (result: RPCLoadResult, daemonCPU: Double?)] = [:]
        var base = 1
        for workload in selectedWorkloads {
            let make = workload == "reload" ? reloadRequest() : donateRequest()
            let generator = RPCLoadGenerator(socketPath: daemon.socketPath, connections: connections, make: make)
            if warmup > 0 {
                let warm = try generator.run(first: base, total: warmup, seconds: nil)
                base += warmup
                if warm.failures > 0 {
                    progress("  warm-up: \(warm.failures) failures, e.g. \(warm.failureSamples.first ?? "")")
                }
            }
            let cpuBefore = daemon.cpuSeconds
            let result = try generator.run(first: base, total: seconds == nil ? requests : nil, seconds: seconds)
            let cpuAfter = daemon.cpuSeconds
            base += result.completed
            let daemonCPU = cpuBefore.flatMap { before in cpuAfter.map { $0 - before } }
            measured[workload] = (result, daemonCPU)
            let stats = LoadStatistics(result.latencies)
            progress(String(
                format: "widgetd %@: %d requests in %.2f s = %.0f/s, p50 %.3f ms, p99 %.3f ms, %d failures, daemon CPU %.1f µs/request, load generator CPU %.0f%% of one core",
                workload, result.completed, result.elapsed, Double(result.completed - result.failures) / result.elapsed,
                stats.median / 1e6, stats.percentile(99) / 1e6, result.failures,
                (daemonCPU ?? .nan) / Double(max(result.completed, 1)) * 1e6, result.clientCPU / result.elapsed * 100))
            for sample in result.failureSamples { progress("  failure: \(sample)") }
        }
        guard daemon.isRunning else { throw LoadError("widgetd ended during the run:\n\(daemon.logTail())") }
        // Not timed: does a commit reach the disk before the answer? Count the daemon's
        // fsync/fdatasync calls while it answers sequential donations.
        let syncCheck = selectedWorkloads.contains("donate")
            ? Self.countCommitSyncs(socket: daemon.socketPath, pid: daemon.pid, workDir: work.path) : nil
        if let syncCheck { progress("durability check: \(syncCheck)") }
        let problems = daemon.logProblems()
        let rss = daemon.residentBytes
        let termination = daemon.stop()
        daemonStopped = true
        if termination != .exited(0) { progress("note: widgetd stopped with \(termination)") }
        if problems.count > 0 {
            progress("note: \(problems.count) warning/error lines in the daemon log, e.g.:\n  " + problems.first.joined(separator: "\n  "))
        }

        guard !noReference, let redisServerPath, let redisBenchmarkPath else {
            succeeded = true
            return
        }

        for workload in selectedWorkloads {
            guard let (result, daemonCPU) = measured[workload] else { continue }
            let durable = workload == "donate"
            let redis = try RedisServer(
                dir: work.path + "/redis-\(workload)", persistence: durable ? .appendFsyncAlways : .none, binary: redisServerPath)
            let cpuBefore = redis.cpuSeconds
            let reference: RedisBenchmarkResult
            do {
                reference = try RedisBenchmark.zadd(
                    binary: redisBenchmarkPath, socketPath: redis.socketPath, connections: connections, requests: requests)
            } catch {
                redis.stop()
                throw error
            }
            let redisCPU = cpuBefore.flatMap { before in redis.cpuSeconds.map { $0 - before } }
            let aofBytes = redis.appendOnlyBytes
            redis.stop()
            progress(String(
                format: "redis %@ (%@): %.0f/s, p50 %@ ms, p99 %@ ms%@", workload,
                durable ? "appendfsync always" : "no persistence", reference.requestsPerSecond,
                reference.p50.map { String(format: "%.3f", $0) } ?? "?", reference.p99.map { String(format: "%.3f", $0) } ?? "?",
                durable ? ", append-only file \(aofBytes) bytes" : ""))

            let stats = LoadStatistics(result.latencies)
            let successes = result.completed - result.failures
            let throughput = Double(successes) / result.elapsed
            let p99 = stats.percentile(99) / 1e6
            let what = durable
                ? "donate (intent donation, answered after its SQLite commit; WAL)"
                : "reloadTimelines of one kind (\(instancesPerKind) instances; budget on as installed, so the request is persisted and, after each instance's first, deferred)"
            let referenceText = durable
                ? "Redis \(redis.version) ZADD with appendonly yes, appendfsync always (fsync before reply, group commit per event-loop pass; append-only file grew to \(aofBytes) bytes)"
                : "Redis \(redis.version) ZADD, no persistence (--save '' --appendonly no)"
            var common = "\(what); \(kinds) kinds × \(instancesPerKind) instances; \(connections) connections, one request in flight each, "
            common += "single-threaded poll(2) load generator like redis-benchmark's (\(String(format: "%.0f", result.clientCPU / result.elapsed * 100))% of one core); "
            common += seconds == nil ? "\(result.completed) requests " : "\(result.completed) requests in \(String(format: "%.1f", result.elapsed)) s "
            common += "after \(warmup) warm-up; \(result.failures) failures"
            if let sample = result.failureSamples.first { common += " (e.g. \(sample))" }
            common += "; widgetd p50 \(String(format: "%.3f", stats.median / 1e6)) ms"
            if let daemonCPU {
                common += ", daemon CPU \(String(format: "%.0f", daemonCPU / Double(max(result.completed, 1)) * 1e6)) µs/request"
            }
            if let redisCPU {
                common += ", redis-server CPU \(String(format: "%.1f", redisCPU / Double(requests) * 1e6)) µs/request"
            }
            if let rss { common += "; daemon RSS at the end \(rss / 1_048_576) MiB" }
            if durable, let syncCheck { common += "; durability check (not timed): \(syncCheck)" }
            common += "; reference: \(referenceText), `\((["redis-benchmark"] + reference.command.dropFirst()).joined(separator: " "))`"
            common += ", p50 \(reference.p50.map { String(format: "%.3f", $0) } ?? "?") ms; state and Redis dir on \(fsType)"
            common += "; 1-min load average before the run \(loadBefore), after \(loadAverage())."

            let label = durable ? "durable state changes/s (`donate`, answered after commit), \(connections) connections"
                : "reload requests/s over the control socket, \(connections) concurrent connections, no pipelining"
            try Figure(
                id: "rpc.\(workload).throughput", figure: label, widgetd: throughput, reference: reference.requestsPerSecond,
                unit: "requests/s", target: "≥ 1.0×", notes: common
            ).record(to: self.common.figures)
            var p99Notes = common
            if reference.p99 == nil {
                p99Notes += " redis-benchmark printed no p99 column: no reference."
            }
            try Figure(
                id: "rpc.\(workload).p99",
                figure: durable ? "`donate` latency p99, \(connections) connections" : "`reloadTimelines` latency p99, \(connections) connections",
                widgetd: p99, reference: reference.p99, unit: "ms", target: "≤ 1.5×", notes: p99Notes
            ).record(to: self.common.figures)
        }
        succeeded = true
    }

    /// Places the instances (each `add` starts an exempt first load) and waits until every
    /// one has its first timeline, so the measured requests find a settled daemon.
    private func setUpInstances(socket: String) throws {
        let events = try LoadClient(path: socket)
        try events.call("subscribe")
        let control = try LoadClient(path: socket)
        var pending = Set<String>()
        var failed: [String] = []
        let consume: ([String: Any]) -> Void = { event in
            switch event["type"] as? String {
            case "reload": for id in event["instances"] as? [String] ?? [] { pending.remove(id) }
            case "reloadFailed": failed.append("\(event["error"] ?? "?")")
            default: break
            }
        }
        var ids: [String] = []
        for kind in 0..<kinds {
            for instance in 0..<instancesPerKind {
                let result = try control.call(
                    "add",
                    ["kind": kindName(kind), "family": "systemSmall",
                     "configuration": ["city": "city-\((kind * instancesPerKind + instance) % Self.cities)"]])
                guard let id = (result as? [String: Any])?["id"] as? String else { throw LoadError("add: no id in \(result)") }
                ids.append(id)
                pending.insert(id)
            }
        }
        let deadline = monotonicSeconds() + 300
        while !pending.isEmpty {
            guard failed.isEmpty else { throw LoadError("a first load failed: \(failed[0])") }
            guard monotonicSeconds() < deadline else {
                throw LoadError("\(pending.count) instances still without a timeline after 300 s")
            }
            if let event = try events.nextNotification(timeout: 5) { consume(event) }
        }
    }

    /// Sends `count` donations one at a time while `strace -c` counts the daemon's fsync and
    /// fdatasync calls: with every commit flushed before its answer there is at least one per
    /// donation. Returns a sentence for the notes, or nil without strace.
    static func countCommitSyncs(socket: String, pid: pid_t, workDir: String, count: Int = 200) -> String? {
        guard let strace = LoadProcess.which("strace") else { return "not checked (strace is not installed)" }
        let output = workDir + "/strace-syncs.txt"
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        guard let tracer = try? LoadProcess.spawn(
            [strace, "-f", "-c", "-e", "trace=fsync,fdatasync,sync_file_range", "-o", output, "-p", "\(pid)"],
            stdin: devNull, stdout: devNull, stderr: devNull)
        else { return "not checked (strace did not start)" }
        Thread.sleep(forTimeInterval: 1)
        var sent = 0
        if let client = try? LoadClient(path: socket) {
            for index in 0..<count {
                guard (try? client.call(
                    "donate", ["intentType": intentType, "parameters": ["city": "city-\(index % cities)"], "id": "sync-\(index)"]))
                    != nil else { break }
                sent += 1
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(tracer, SIGINT)
        if LoadProcess.wait(tracer, timeout: 10) == nil {
            kill(tracer, SIGKILL)
            _ = LoadProcess.wait(tracer, timeout: nil)
        }
        guard sent > 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else {
            return "not checked (strace could not attach or no donation was answered)"
        }
        var calls = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let name = fields.last, ["fsync", "fdatasync", "sync_file_range"].contains(String(name)), fields.count >= 5,
                  let number = Int(fields[3]) else { continue }
            calls += number
        }
        let perCommit = Double(calls) / Double(sent)
        var sentence = "\(calls) fsync/fdatasync calls while \(sent) sequential donations were answered (strace -c), "
        sentence += String(format: "%.2f per commit", perCommit)
        if perCommit < 0.9 {
            sentence += ": commits are NOT flushed to disk before the answer (as with synchronous=NORMAL in WAL mode), so this figure is not a durable one"
        }
        return sentence
    }

    /// `reloadTimelines` of kind `n % kinds`.
    private func reloadRequest() -> (Int, inout [UInt8]) -> Void {
        let prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        let suffixes = (0..<kinds).map {
            Array(#","method":"reloadTimelines","params":{"kinds":["\#(kindName($0))"]}}"#.utf8) + [UInt8(ascii: "\n")]
        }
        let kinds = self.kinds
        return { number, buffer in
            buffer.append(contentsOf: prefix)
            appendDecimal(number, to: &buffer)
            buffer.append(contentsOf: suffixes[number % kinds])
        }
    }

    /// `donate` of the bench intent for city `n % cities`, with a unique id and one of ten groups.
    private func donateRequest() -> (Int, inout [UInt8]) -> Void {
        let prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
        let middles = (0..<10).map { Array(#","method":"donate","params":{"group":"g\#($0)","id":"d-"#.utf8) }
        let tails = (0..<Self.cities).map {
            Array(#"","intentType":"\#(Self.intentType)","parameters":{"city":"city-\#($0)"}}}"#.utf8) + [UInt8(ascii: "\n")]
        }
        return { number, buffer in
            buffer.append(contentsOf: prefix)
            appendDecimal(number, to: &buffer)
            buffer.append(contentsOf: middles[number % 10])
            appendDecimal(number, to: &buffer)
            buffer.append(contentsOf: tails[number % Self.cities])
        }
    }
}
