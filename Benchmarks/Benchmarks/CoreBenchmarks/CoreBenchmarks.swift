import BenchSupport
import Benchmark

// In-process figures of the pure core, for developers who want allocations and instructions:
//
//   cd Benchmarks && swift package --disable-sandbox benchmark --target CoreBenchmarks
//
// The measured bodies live in BenchSupport/CoreWorkloads.swift and are shared with
// `widgetd-scale core`, which times them with ContinuousClock and writes the figure lines.
// Set-up (filling 1,000,000 instances, building 10,000 stacks) runs in `setup`, outside
// the measurement.

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [
        .wallClock, .throughput, .cpuTotal, .instructions, .mallocCountTotal, .peakMemoryResident,
    ]

    // One iteration = 1,000 operations (scalingFactor .kilo): throughput reads as operations/s.
    Benchmark(
        "scheduler core: reschedule + pop-earliest, 1,000,000 instances",
        configuration: .init(metrics: metrics, warmupIterations: 1, scalingFactor: .kilo, maxDuration: .seconds(15), maxIterations: 200),
        closure: { benchmark, workload in
            for _ in benchmark.scaledIterations {
                blackHole(workload.step())
            }
        },
        setup: { SchedulerWorkload(instances: 1_000_000, providers: 100, coalescingWindow: 0) })

    Benchmark(
        "reference: Heap<UInt64> insert + popMin, 1,000,000 deadlines",
        configuration: .init(metrics: metrics, warmupIterations: 2, scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 2000),
        closure: { benchmark, workload in
            for _ in benchmark.scaledIterations {
                blackHole(workload.step())
            }
        },
        setup: { HeapReferenceWorkload(size: 1_000_000) })

    // One iteration = one pass over all 10,000 stacks (µs per stack = wall clock / 10,000).
    Benchmark(
        "rotation: re-evaluate 10,000 stacks of 10 instances (one pass)",
        configuration: .init(metrics: metrics, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 50),
        closure: { _, workload in
            blackHole(workload.pass())
        },
        setup: { RotationWorkload(stacks: 10_000, perStack: 10) })
}
