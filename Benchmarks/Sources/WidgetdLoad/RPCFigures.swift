import BenchSupport
import Foundation

/// The three figures of one workload (server CPU per request, throughput, p99), from its
/// pairs of runs, with notes that say how they were made and how noisy the machine was.
struct RPCFigures {
    /// How the runs were made (the same for every workload).
    struct Setting {
        var connections: Int
        var requests: Int
        var seconds: Double?
        var warmup: Int
        var pairs: Int
        var kinds: Int
        var instancesPerKind: Int
        var fileSystem: String
    }

    /// What was checked around the runs.
    struct Checks {
        var redisVersion: String
        var syncs: [String] = []
        var appendOnlyBytes: Int?
        var stateBytes: Int?
        var crossCheck: RedisBenchmarkResult?
    }

    var workload: RPCWorkload
    var setting: Setting
    var checks: Checks
    var results: [PairedRuns.Pair]
    /// The widgetd binary the runs measured.
    var program: String

    func record(to path: String) throws {
        let runs = results.compactMap { pair in pair.redis.map { (widgetd: pair.widgetd, redis: $0) } }
        guard !runs.isEmpty else { return }
        let id = "rpc.\(workload.rawValue)"
        func pairs(_ value: (MeasuredRun) -> Double) -> [Figure.Pair] {
            runs.map { Figure.Pair(widgetd: value($0.widgetd), reference: value($0.redis)) }
        }
        try Figure(
            id: id + ".cpu", figure: "\(workload.title): server CPU per request", pairs: pairs(\.cpuPerRequest),
            unit: "µs/request", target: "≤ 1.5×", notes: cpuNotes(runs)
        ).measuring(program).record(to: path)
        try Figure(
            id: id + ".throughput", figure: "\(workload.title): throughput, \(setting.connections) connections",
            pairs: pairs(\.throughput), unit: "requests/s", target: "≥ 1.0×", notes: throughputNotes(runs)
        ).measuring(program).record(to: path)
        try Figure(
            id: id + ".p99", figure: "\(workload.title): p99 latency, \(setting.connections) connections",
            pairs: pairs(\.p99), unit: "ms", target: "≤ 1.5×", notes: p99Notes(runs)
        ).measuring(program).record(to: path)
    }

    private typealias Runs = [(widgetd: MeasuredRun, redis: MeasuredRun)]

    private var widgetdSide: String {
        switch workload {
        case .ping: "widgetd `ping` (no params)"
        case .reload:
            "widgetd `reloadTimelines` of one kind per request (\(setting.kinds) kinds × \(setting.instancesPerKind) instances, kinds in turn; budget on as installed, so each request is persisted and, after each instance's first, deferred)"
        case .donate: "widgetd `donate` (unique id, answered after its SQLite commit; WAL, synchronous=FULL)"
        }
    }

    private var redisSide: String {
        switch workload {
        case .ping: "Redis \(checks.redisVersion) `PING`, memory only (--save '' --appendonly no)"
        case .reload:
            "Redis \(checks.redisVersion) `ZADD bench:kNN score member`, memory only (--save '' --appendonly no), a new member every request (every reply `:1`)"
        case .donate:
            "Redis \(checks.redisVersion) `ZADD bench:kNN score member` with --appendonly yes --appendfsync always (fsync before the reply, one per event-loop pass; no automatic rewrite), a new member every request (every reply `:1`)"
        }
    }

    private func number(_ value: Double, _ digits: Int = 2) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "?"
    }

    /// "w / r (ratio×)" for each pair.
    private func perPair(_ runs: Runs, _ value: (MeasuredRun) -> Double, digits: Int) -> String {
        runs.map { pair in
            let w = value(pair.widgetd)
            let r = value(pair.redis)
            return "\(number(w, digits)) / \(number(r, digits)) (\(Figure.formatRatio(w / r)))"
        }.joined(separator: ", ")
    }

    private var sameAs: String { "Runs as in `rpc.\(workload.rawValue).cpu`." }

    private func cpuNotes(_ runs: Runs) -> String {
        let all = runs.flatMap { [$0.widgetd, $0.redis] }
        var text = "\(widgetdSide); \(redisSide). "
        text += "One load generator for both (one thread, poll(2), \(setting.connections) unix-socket connections to each server, "
        text += "one request in flight per connection, requests encoded beforehand; JSON-RPC lines to widgetd, RESP to Redis). "
        text += "\(setting.pairs) pair\(setting.pairs == 1 ? "" : "s") of runs, widgetd then Redis, of \(setting.requests) requests"
        if let seconds = setting.seconds { text += " (or \(number(seconds, 0)) s)" }
        text += " each, after \(setting.warmup) warm-up requests to each; both servers up throughout. "
        text += "Server CPU = user + system time of all its threads (the process CPU clock, i.e. /proc/PID/stat's utime + stime "
        text += "in ns), read just before and just after each run, ÷ requests. Per pair widgetd / Redis µs/request: "
        text += perPair(runs, \.cpuPerRequest, digits: 2) + ". "
        let statW = median(runs.map { ($0.widgetd.statCPU ?? .nan) / Double(max($0.widgetd.requests, 1)) * 1e6 })
        let statR = median(runs.map { ($0.redis.statCPU ?? .nan) / Double(max($0.redis.requests, 1)) * 1e6 })
        text += "Cross-check from /proc/PID/stat (10 ms ticks): medians \(number(statW)) / \(number(statR)) µs. "
        let tailW = median(runs.map { ($0.widgetd.tailCPU ?? .nan) / Double(max($0.widgetd.requests, 1)) * 1e6 })
        let tailR = median(runs.map { ($0.redis.tailCPU ?? .nan) / Double(max($0.redis.requests, 1)) * 1e6 })
        text += "CPU after the last answer until idle (not counted): medians \(number(tailW)) / \(number(tailR)) µs/request. "
        let genW = median(runs.map { $0.widgetd.run.generatorCPU / Double(max($0.widgetd.requests, 1)) * 1e6 })
        let genR = median(runs.map { $0.redis.run.generatorCPU / Double(max($0.redis.requests, 1)) * 1e6 })
        text += "Load generator CPU: medians \(number(genW)) µs/request in widgetd runs, \(number(genR)) in Redis runs. "
        let others = all.compactMap(\.othersShare)
        if let worst = others.max() {
            text += "Rest of the machine during the runs: median \(number(median(others) * 100, 0))%, "
            text += "worst \(number(worst * 100, 0))% of all cores. "
        }
        let loads = all.flatMap { [$0.before.loadAverage, $0.after.loadAverage] }.compactMap { $0 }
        if let low = loads.min(), let high = loads.max() {
            text += "1-min load average \(number(low)) to \(number(high)). "
        }
        let failures = all.reduce(0) { $0 + $1.run.failures }
        text += "\(failures) failed requests"
        if let sample = all.lazy.flatMap(\.run.failureSamples).first { text += " (e.g. \(sample))" }
        text += "."
        if workload == .donate { text += " " + durabilityNotes(runs) }
        return text
    }

    private func durabilityNotes(_ runs: Runs) -> String {
        var text = "On disk (\(setting.fileSystem)): "
        let growthW = median(runs.map { ($0.widgetd.diskGrowth ?? .nan) / Double(max($0.widgetd.requests, 1)) })
        let growthR = median(runs.map { ($0.redis.diskGrowth ?? .nan) / Double(max($0.redis.requests, 1)) })
        text += "widgetd's state files grew a median \(number(growthW, 0)) B per donation in a run"
        if let stateBytes = checks.stateBytes { text += " (\(stateBytes) B at the end)" }
        text += ", Redis's append-only file \(number(growthR, 0)) B per ZADD"
        if let bytes = checks.appendOnlyBytes { text += " (\(bytes) B at the end)" }
        text += ". Durability check (not timed): " + (checks.syncs.isEmpty ? "not run" : checks.syncs.joined(separator: "; ")) + "."
        return text
    }

    private func throughputNotes(_ runs: Runs) -> String {
        var text = "Answered requests per second of wall time. Per pair widgetd / Redis: "
        text += perPair(runs, \.throughput, digits: 0) + ". "
        if let cross = checks.crossCheck {
            text += "Cross-check of the load generator (not a figure): `redis-benchmark -c \(setting.connections) "
            text += "-n \(setting.requests) -r 100000000 \(cross.command.joined(separator: " "))` "
            text += "on the same Redis: \(number(cross.requestsPerSecond, 0)) requests/s"
            if let p99 = cross.p99 { text += ", p99 \(number(p99, 3)) ms" }
            text += ". "
        }
        let busiest = runs.map { $0.redis.run.generatorCPU / $0.redis.run.elapsed }.max() ?? 0
        if busiest > 0.9 {
            text += "The load generator used up to \(number(busiest * 100, 0))% of a core in the Redis runs, so there it, "
            text += "not Redis, set the pace: Redis's throughput is a lower bound and the ratio flatters widgetd. "
        }
        return text + sameAs
    }

    private func p99Notes(_ runs: Runs) -> String {
        var text = "Per pair widgetd / Redis p99 ms: " + perPair(runs, \.p99, digits: 3) + "; "
        let p50W = median(runs.map { $0.widgetd.latency.median / 1e6 })
        let p50R = median(runs.map { $0.redis.latency.median / 1e6 })
        text += "p50 medians \(number(p50W, 3)) / \(number(p50R, 3)) ms. "
        return text + sameAs
    }
}
