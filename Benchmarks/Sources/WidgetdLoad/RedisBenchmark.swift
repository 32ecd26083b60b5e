import BenchSupport
import Foundation

/// What one `redis-benchmark` run says (`--csv`).
struct RedisBenchmarkResult {
    var argv: [String]
    /// The Redis command it sent.
    var command: [String]
    var requestsPerSecond: Double
    var p99: Double?
}

/// A cross-check of the load generator, not a figure: `redis-benchmark` against the same
/// Redis with the same command, connections and request count. If it gets far more out of
/// Redis than `LoadGenerator` does, the generator is what limits the Redis runs.
enum RedisBenchmark {
    /// `redis-benchmark -s SOCKET -c C -n N -r 100000000 --csv COMMAND…`. A command given on
    /// the command line replaces `-t`; `__rand_int__` in it is replaced by a random number
    /// below `-r`, so a ZADD adds a new member nearly every time.
    static func run(binary: String, socketPath: String, connections: Int, requests: Int, command: [String]) throws
        -> RedisBenchmarkResult
    {
        let argv = [binary, "-s", socketPath, "-c", "\(connections)", "-n", "\(requests)", "-r", "100000000", "--csv"] + command
        let run = try LoadProcess.run(argv, timeout: 600)
        guard run.termination == .exited(0) else {
            throw LoadError("\(argv.joined(separator: " ")): \(run.termination)\n\(run.stderr)")
        }
        // Redis 7: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        // Redis 6 prints only "test","rps" with no header.
        let lines = run.stdout.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
        func fields(_ line: String) -> [String] {
            line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            }
        }
        let header = lines.first(where: { $0.hasPrefix("\"test\"") || $0.hasPrefix("test,") }).map(fields)
        guard let data = lines.first(where: { !$0.hasPrefix("\"test\"") && !$0.hasPrefix("test,") && $0.contains(",") })
            .map(fields), data.count >= 2
        else { throw LoadError("cannot read redis-benchmark's CSV:\n\(run.stdout)") }
        func value(_ name: String) -> Double? {
            header?.firstIndex(of: name).flatMap { $0 < data.count ? Double(data[$0]) : nil }
        }
        guard let rps = value("rps") ?? Double(data[1]) else { throw LoadError("no rps in redis-benchmark's CSV:\n\(run.stdout)") }
        return RedisBenchmarkResult(argv: argv, command: command, requestsPerSecond: rps, p99: value("p99_latency_ms"))
    }

    /// The redis-benchmark command nearest to a workload's Redis side.
    static func command(for workload: RPCWorkload) -> [String] {
        workload == .ping ? ["PING"] : ["ZADD", "bench:cross", "__rand_int__", "m:__rand_int__"]
    }
}
