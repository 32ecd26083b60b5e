import ArgumentParser
import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `widgetd-load rpc`: widgetd's request handling against Redis, measured in one run by one
/// load generator that speaks JSON-RPC lines to widgetd and RESP to Redis, with the same
/// connections, one request in flight on each and requests encoded beforehand.
///
/// For each workload (`RPCWorkload`: ping, reload, donate) one widgetd and one redis-server
/// stay up and are measured in turn, widgetd then Redis, for `--pairs` pairs after a
/// warm-up. Server CPU time per request is the headline (steady on shared machines);
/// throughput and p99 latency are reported beside it, each as the median of the pairs'
/// ratios.
struct RPCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rpc",
        abstract: "widgetd against Redis: CPU per request, throughput and p99, in alternating pairs of runs.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Concurrent connections (each with one request in flight), to each server.")
    var connections = 50

    // 100,000: Redis answers PING at a few hundred thousand a second here, and a run much
    // shorter than half a second gives it too few ticks of the machine to be steady.
    @Option(help: "Requests per measured run.")
    var requests = 100_000

    @Option(help: "Also end a run after this many seconds (stops sending; waits for the answers).")
    var seconds: Double?

    @Option(help: "Requests sent to each server before the first pair (not measured).")
    var warmup = 5000

    @Option(help: "Pairs of runs (widgetd, then Redis) per workload; figures are their medians.")
    var pairs = 3

    @Option(help: "Kinds to set up (all served by one sh provider).")
    var kinds = 10

    @Option(name: .customLong("instances-per-kind"), help: "Instances of each kind.")
    var instancesPerKind = 10

    @Option(help: "Workloads to run, comma-separated: ping, reload, donate.")
    var workloads = "ping,reload,donate"

    @Option(name: .customLong("redis-server"), help: "redis-server binary (default: on PATH).")
    var redisServer: String?

    @Option(name: .customLong("redis-benchmark"), help: "redis-benchmark binary for the cross-check (default: on PATH).")
    var redisBenchmark: String?

    @Flag(name: .customLong("no-cross-check"), help: "Skip the redis-benchmark cross-check of the load generator.")
    var noCrossCheck = false

    @Flag(name: .customLong("no-reference"), help: "Measure widgetd only and write no figures (for profiling runs).")
    var noReference = false

    @Option(name: .customLong("pid-file"), help: "Write the daemon's pid here once it is set up (for attaching a profiler).")
    var pidFile: String?

    @Option(name: .customLong("pause-before"), help: "Seconds to wait after setup, before the first workload (time to attach a profiler).")
    var pauseBefore: Double = 0

    func validate() throws {
        guard connections > 0, requests > 0, pairs > 0, kinds > 0, instancesPerKind > 0, warmup >= 0 else {
            throw ValidationError("counts must be positive")
        }
        if let seconds, seconds <= 0 { throw ValidationError("--seconds must be positive") }
        _ = try selectedWorkloads()
    }

    func selectedWorkloads() throws -> [RPCWorkload] {
        try workloads.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map {
            guard let workload = RPCWorkload(rawValue: $0) else {
                throw ValidationError("--workloads: unknown workload '\($0)' (ping, reload, donate)")
            }
            return workload
        }
    }

    func run() throws {
        let binary = try common.widgetdBinary()
        let selected = try selectedWorkloads()
        var redisServerPath: String?
        if !noReference {
            redisServerPath = redisServer ?? LoadProcess.which("redis-server", extra: ["/usr/sbin", "/usr/bin"])
            guard redisServerPath != nil else {
                throw ValidationError("redis-server is needed for the reference (apt-get install redis-server), or pass --no-reference")
            }
        }
        let redisBenchmarkPath = noReference || noCrossCheck ? nil : redisBenchmark ?? LoadProcess.which("redis-benchmark")
        let work = try common.makeWorkDir("rpc")
        var succeeded = false
        defer { common.cleanUp(work, succeeded: succeeded) }
        let setting = RPCFigures.Setting(
            connections: connections, requests: requests, seconds: seconds, warmup: warmup, pairs: pairs, kinds: kinds,
            instancesPerKind: instancesPerKind, fileSystem: fileSystemType(of: work.path))
        progress("widgetd-load rpc: work dir \(work.path) [\(setting.fileSystem)], daemon \(binary)")

        let daemon = try startDaemon(binary: binary, work: work.path)
        var daemonStopped = false
        defer { if !daemonStopped { daemon.stop() } }
        if let pidFile { try writeFile(pidFile, "\(daemon.pid)\n") }
        if pauseBefore > 0 {
            progress("pausing \(pauseBefore) s (pid \(daemon.pid))")
            Thread.sleep(forTimeInterval: pauseBefore)
        }

        var failedRequests = 0
        for workload in selected {
            progress("\(workload.rawValue): \(pairs) pair\(pairs == 1 ? "" : "s") of \(requests) requests, \(connections) connections")
            let widgetd = try LoadTarget(
                name: "widgetd", pid: daemon.pid, socketPath: daemon.socketPath, connections: connections,
                framing: .jsonRPCLines, encode: workload.widgetdEncoder(shape),
                diskBytes: workload == .donate ? { [stateDir = daemon.stateDir] in directoryBytes(stateDir) } : nil)
            defer { widgetd.generator.close() }
            guard let redisServerPath else {
                let results = try PairedRuns(
                    widgetd: widgetd, redis: nil, pairs: pairs, requests: requests, seconds: seconds, warmup: warmup
                ).run(label: workload.rawValue)
                failedRequests += results.reduce(0) { $0 + $1.widgetd.run.failures }
                continue
            }

            let redis = try RedisServer(
                dir: work.path + "/redis-\(workload.rawValue)", persistence: workload.persistence, binary: redisServerPath)
            defer { redis.stop() }
            let redisTarget = try LoadTarget(
                name: "redis", pid: redis.pid, socketPath: redis.socketPath, connections: connections,
                framing: .resp(expected: workload.redisExpectedReply), encode: workload.redisEncoder(keys: kinds),
                diskBytes: workload == .donate ? { redis.appendOnlyBytes } : nil)
            defer { redisTarget.generator.close() }

            let results = try PairedRuns(
                widgetd: widgetd, redis: redisTarget, pairs: pairs, requests: requests, seconds: seconds, warmup: warmup
            ).run(label: workload.rawValue)
            guard daemon.isRunning else { throw LoadError("widgetd ended during the run:\n\(daemon.logTail())") }
            failedRequests += results.reduce(0) { $0 + $1.widgetd.run.failures + ($1.redis?.run.failures ?? 0) }

            var checks = RPCFigures.Checks(redisVersion: redis.version)
            if workload == .donate {
                checks.syncs = durabilityChecks(daemon: daemon, redis: redis, work: work.path)
                checks.appendOnlyBytes = redis.appendOnlyBytes
                checks.stateBytes = directoryBytes(daemon.stateDir)
                for sentence in checks.syncs { progress("  durability check: \(sentence)") }
            }
            if let redisBenchmarkPath {
                do {
                    let cross = try RedisBenchmark.run(
                        binary: redisBenchmarkPath, socketPath: redis.socketPath, connections: connections,
                        requests: requests, command: RedisBenchmark.command(for: workload))
                    checks.crossCheck = cross
                    progress(String(format: "  cross-check: redis-benchmark %.0f requests/s", cross.requestsPerSecond))
                } catch {
                    progress("  cross-check failed: \(error)")
                }
            }
            try RPCFigures(workload: workload, setting: setting, checks: checks, results: results, program: binary)
                .record(to: common.figures)
        }

        let problems = daemon.logProblems()
        let rss = daemon.residentBytes
        let termination = daemon.stop()
        daemonStopped = true
        if let rss { progress("widgetd RSS at the end \(rss / 1_048_576) MiB") }
        if termination != .exited(0) { progress("note: widgetd stopped with \(termination)") }
        if problems.count > 0 {
            progress("note: \(problems.count) warning/error lines in the daemon log, e.g.:\n  " + problems.first.joined(separator: "\n  "))
        }
        guard failedRequests == 0 else {
            throw LoadError("\(failedRequests) measured requests failed (the figures were written, with the failures in their notes)")
        }
        succeeded = true
    }

    /// Whether writes reach the disk before their answer, on both sides: sequential
    /// donations to widgetd, sequential ZADDs (new members) to Redis.
    private func durabilityChecks(daemon: LoadDaemon, redis: RedisServer, work: String) -> [String] {
        var sentences: [String] = []
        if let client = try? LoadClient(path: daemon.socketPath) {
            sentences.append(SyncCheck.run(server: "widgetd", pid: daemon.pid, workDir: work) { index in
                try client.call(
                    "donate",
                    ["intentType": Self.intentType, "parameters": ["city": "city-\(index % Self.cities)"], "id": "sync-\(index)"])
            })
        }
        if let client = try? RESPClient(path: redis.socketPath) {
            sentences.append(SyncCheck.run(server: "redis", pid: redis.pid, workDir: work) { index in
                let reply = try client.call(["ZADD", "bench:sync", "\(index)", "sync-\(index)"])
                guard reply == ":1" else { throw LoadError("ZADD answered \(reply)") }
            })
        }
        return sentences
    }
}
