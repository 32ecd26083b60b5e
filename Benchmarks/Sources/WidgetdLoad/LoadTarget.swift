import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One server under load for one workload: its process, the generator's connections to it,
/// how its requests are encoded, and the number the next request gets (numbers continue
/// across runs, so donation ids and Redis members stay unique while the server stays up).
final class LoadTarget {
    let name: String
    let pid: pid_t
    let generator: LoadGenerator
    private let encode: (Int, inout [UInt8]) -> Void
    /// Bytes the server keeps on disk (state files, append-only file), when the workload
    /// should show its writes reaching the disk.
    private let diskBytes: (() -> Int)?
    private(set) var nextNumber = 1

    init(
        name: String, pid: pid_t, socketPath: String, connections: Int, framing: WireFraming,
        encode: @escaping (Int, inout [UInt8]) -> Void, diskBytes: (() -> Int)? = nil
    ) throws {
        self.name = name
        self.pid = pid
        self.encode = encode
        self.diskBytes = diskBytes
        generator = try LoadGenerator(socketPath: socketPath, connections: connections, framing: framing)
    }

    /// Requests not measured (a fresh server's first ones pay for caches and allocations).
    func warmUp(_ count: Int) throws -> LoadRun {
        let run = try generator.run(makeBatch(count))
        nextNumber += run.completed
        return run
    }

    /// One measured run: `count` requests (or fewer if `seconds` pass first) with the samples
    /// taken just before and just after it, then a wait until the server is idle again, so
    /// that work it does after answering neither escapes this run nor lands in the next.
    func measure(_ count: Int, seconds: Double?) throws -> MeasuredRun {
        let batch = makeBatch(count)
        let diskBefore = diskBytes?()
        let before = MachineSample.take(server: pid)
        let run = try generator.run(batch, seconds: seconds)
        let after = MachineSample.take(server: pid)
        nextNumber += run.completed
        let tail = settle(from: after.serverCPU ?? after.serverCPUFromStat)
        let diskAfter = diskBytes?()
        return MeasuredRun(
            server: name, run: run, before: before, after: after, tailCPU: tail,
            diskGrowth: delta(diskBefore.map(Double.init), diskAfter.map(Double.init)))
    }

    private func makeBatch(_ count: Int) -> RequestBatch {
        RequestBatch(first: nextNumber, count: count, encode: encode)
    }

    private func cpu() -> Double? {
        MachineSample.processCPUSeconds(pid) ?? LoadProcess.cpuSeconds(pid)
    }

    /// Waits (at most `limit` seconds) until the server uses under 1% of a core over 50 ms;
    /// returns the CPU seconds it used from `start` until then.
    private func settle(from start: Double?, limit: Double = 3) -> Double? {
        guard let start else { return nil }
        let deadline = monotonicSeconds() + limit
        var last = start
        while monotonicSeconds() < deadline {
            usleep(50_000)
            guard let now = cpu() else { return nil }
            defer { last = now }
            if now - last < 0.0005 { return now - start }
        }
        return cpu().map { $0 - start }
    }
}
