import BenchSupport

/// widgetd and Redis measured in turn while both stay up: a warm-up of each, then widgetd,
/// Redis, widgetd, Redis, … so that each pair's two runs see nearly the same machine.
struct PairedRuns {
    var widgetd: LoadTarget
    /// nil: widgetd alone (profiling runs, no figures).
    var redis: LoadTarget?
    var pairs: Int
    var requests: Int
    var seconds: Double?
    var warmup: Int

    struct Pair {
        var widgetd: MeasuredRun
        var redis: MeasuredRun?
    }

    func run(label: String) throws -> [Pair] {
        if warmup > 0 {
            for target in [widgetd] + (redis.map { [$0] } ?? []) {
                let warm = try target.warmUp(warmup)
                if warm.failures > 0 {
                    progress("  \(label) warm-up of \(target.name): \(warm.failures) failures, e.g. \(warm.failureSamples.first ?? "")")
                }
            }
        }
        var results: [Pair] = []
        for index in 1...pairs {
            let first = try widgetd.measure(requests, seconds: seconds)
            progress("  \(label) pair \(index) \(first.summary)")
            var pair = Pair(widgetd: first)
            if let redis {
                let second = try redis.measure(requests, seconds: seconds)
                progress("  \(label) pair \(index) \(second.summary)")
                pair.redis = second
            }
            results.append(pair)
        }
        return results
    }
}
