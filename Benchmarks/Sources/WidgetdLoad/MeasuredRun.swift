import BenchSupport
import Foundation

/// One measured run against one server, and the figures it gives.
struct MeasuredRun {
    var server: String
    var run: LoadRun
    var before: MachineSample
    var after: MachineSample
    /// CPU seconds the server used after the run's last answer until it was idle again.
    var tailCPU: Double?
    /// Bytes the server's files grew by during the run (when the workload watches them).
    var diskGrowth: Double?

    var requests: Int { run.completed }

    /// Server CPU seconds during the run: the process CPU clock, else /proc/PID/stat.
    var serverCPU: Double? {
        delta(before.serverCPU, after.serverCPU) ?? delta(before.serverCPUFromStat, after.serverCPUFromStat)
    }

    /// The same from /proc/PID/stat's ticks (a cross-check).
    var statCPU: Double? { delta(before.serverCPUFromStat, after.serverCPUFromStat) }

    /// The headline: server CPU per completed request, in microseconds.
    var cpuPerRequest: Double { (serverCPU ?? .nan) / Double(max(requests, 1)) * 1e6 }

    /// Answered requests (failures excluded) per second of wall time.
    var throughput: Double { Double(run.succeeded) / run.elapsed }

    var latency: LoadStatistics { LoadStatistics(run.latencies) }

    /// p99 latency in milliseconds.
    var p99: Double { latency.percentile(99) / 1e6 }

    /// CPU the rest of the machine used during the run (neither the server nor the load
    /// generator), as a share of all cores: high values mark a noisy run.
    var othersShare: Double? {
        guard let busy = delta(before.machineBusy, after.machineBusy), let serverCPU else { return nil }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return max(0, busy - serverCPU - run.generatorCPU) / (run.elapsed * cores)
    }

    /// One line for the progress output.
    var summary: String {
        var text = String(
            format: "%@: %d requests in %.2f s = %.0f/s, p50 %.3f ms, p99 %.3f ms, server CPU %.2f µs/request",
            server, requests, run.elapsed, throughput, latency.median / 1e6, p99, cpuPerRequest)
        if let tailCPU { text += String(format: " (+%.2f after the run)", tailCPU / Double(max(requests, 1)) * 1e6) }
        text += String(format: ", generator %.0f%% of a core", run.generatorCPU / run.elapsed * 100)
        if let othersShare { text += String(format: ", others %.0f%% of the machine", othersShare * 100) }
        if let load = after.loadAverage { text += String(format: ", load %.2f", load) }
        if run.failures > 0 { text += ", \(run.failures) FAILED (e.g. \(run.failureSamples.first ?? "?"))" }
        if let diskGrowth { text += String(format: ", files +%.0f B/request", diskGrowth / Double(max(requests, 1))) }
        return text
    }
}
