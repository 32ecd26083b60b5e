import ArgumentParser
import Foundation

/// Issue 6 item 9: the simulated day's set-up, then a warm-up day and a week on the virtual
/// clock. RSS and open descriptors are read after each day; the soak fails when RSS after the
/// last day exceeds RSS after the warm-up by more than `--rss-bound` percent, or when the
/// daemon holds more descriptors than after the warm-up.
struct Soak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A simulated week (after a warm-up day) at the day's sizes: RSS flat, no descriptor growth.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Instances to create over the socket.")
    var instances: Int = 10_000

    @Option(help: "Stacks (instances are spread evenly over them).")
    var stacks: Int = 1000

    @Option(help: "Simulated days after the warm-up day.")
    var days: Int = 7

    @Option(name: .customLong("rss-bound"), help: "Allowed RSS growth from the end of the warm-up to the end of the last day, in percent.")
    var rssBound: Double = 5

    @Option(name: .customLong("malloc-arena-max"), help: "Start widgetd with this MALLOC_ARENA_MAX (default: widgetd's own cap).")
    var mallocArenaMax: Int?

    func validate() throws {
        guard instances > 0, stacks > 0, stacks <= instances else { throw ValidationError("need 0 < --stacks <= --instances") }
        guard days > 0 else { throw ValidationError("--days must be at least 1") }
    }

    func run() async throws {
        var options = DayOptions()
        options.instances = instances
        options.stacks = stacks
        let environment = mallocArenaMax.map { ["MALLOC_ARENA_MAX": String($0)] } ?? [:]
        let simulation = try DaySimulation(common: common, options: options, extraEnvironment: environment)
        defer { simulation.daemon.stop() }
        func reading(_ label: String, _ seconds: Double?) throws -> (rss: Int, fds: Int) {
            usleep(500_000)
            let memory = try simulation.daemon.memory()
            let fds = try simulation.openDescriptors()
            let wall = seconds.map { ", \(fixed($0, 1)) s wall" } ?? ""
            print("soak: \(label): RSS \(megabytes(memory.rss)) (\(memory.rss) B), \(fds) open fds\(wall)")
            return (memory.rss, fds)
        }
        _ = try reading("after set-up", simulation.setupSeconds)
        let warm = try simulation.simulateDay("warm-up day")
        let baseline = try reading("after the warm-up day", warm.seconds)
        var last = baseline
        var peakFDs = baseline.fds
        var walls: [Double] = []
        for day in 1...days {
            let result = try simulation.simulateDay("day \(day) of \(days)")
            walls.append(result.seconds)
            last = try reading("after day \(day)", result.seconds)
            peakFDs = max(peakFDs, last.fds)
        }
        let growth = Double(last.rss - baseline.rss) / Double(baseline.rss) * 100
        let launches = simulation.launches()
        print(
            "soak: \(days) simulated days after the warm-up at \(grouped(instances)) instances and \(grouped(stacks)) stacks, "
                + "\(fixed(walls.reduce(0, +), 0)) s wall (\(fixed(walls.reduce(0, +) / Double(days), 1)) s a day), "
                + "\(launches.launches) provider launches reloading \(launches.instances) instances")
        print(
            "soak: RSS \(megabytes(baseline.rss)) after the warm-up, \(megabytes(last.rss)) after day \(days): "
                + "\(String(format: "%+.2f", growth))% (bound \(fixed(rssBound, 1))%); open fds \(baseline.fds) after the warm-up, "
                + "\(last.fds) after day \(days), at most \(peakFDs); \(simulation.statusText())")
        var failures: [String] = []
        if growth > rssBound { failures.append("RSS grew \(fixed(growth, 2))% (more than \(fixed(rssBound, 1))%)") }
        if peakFDs > baseline.fds { failures.append("open fds grew from \(baseline.fds) to \(peakFDs)") }
        guard failures.isEmpty else {
            print("soak: FAILED: " + failures.joined(separator: "; "))
            throw ExitCode.failure
        }
        print("soak: passed")
    }
}
