import ArgumentParser
import BenchSupport
import Foundation
import WidgetCore

/// `widgetd-scale`: large-state figures of the real daemon (restart, memory, a simulated day)
/// and the in-process core figures, each written as one JSON line to `--figures FILE`.
@main
struct WidgetdScale: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgetd-scale",
        abstract: "widgetd at scale: seeding, restart time, memory per instance, a simulated day, core figures.",
        subcommands: [Seed.self, Restart.self, Memory.self, Footprint.self, Day.self, Soak.self, Core.self, All.self])
}

/// Options every subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "Append each figure as one JSON line to this file (created when missing).")
    var figures: String?

    @Option(name: .customLong("work-dir"), help: "Folder for temporary files and seeded databases (reused between runs).")
    var workDir: String = "/tmp/widgetd-scale"

    @Option(help: "The widgetd binary to measure (the root package's release build).")
    var widgetd: String = "../.build/release/widgetd"

    /// The widgetd binary as an absolute path, checked to exist.
    func widgetdPath() throws -> String {
        let path = absolute(widgetd)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ValidationError(
                "no widgetd at \(path); build it with `swift build -c release --product widgetd` in the root package, or pass --widgetd PATH")
        }
        return path
    }

    var workDirectory: String { absolute(workDir) }

    func prepareWorkDirectory() throws -> String {
        let directory = workDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Prints the figure and, with `--figures`, appends its line there; a figure that does not
    /// say what it measured measured the `--widgetd` binary.
    func emit(_ figure: Figure) throws {
        var figure = figure
        if figure.program == nil { figure.program = absolute(widgetd) }
        if let path = figures.map(absolute) { try figure.record(to: path) } else { print(figure.humanReadable) }
        print("")
    }
}

func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
}

/// Sizes of the seeded state.
struct SeedOptions: ParsableArguments {
    @Option(help: "Instances to seed.")
    var instances: Int = 1_000_000

    @Option(help: "Timeline entries per instance.")
    var entries: Int = 5

    @Option(name: .customLong("content-bytes"), help: "Bytes of each entry's content JSON.")
    var contentBytes: Int = 100

    @Option(name: .customLong("state-dir"), help: "State dir to seed (default: seed-NxExB/state under the work dir).")
    var stateDir: String?

    func stateDirectory(workDirectory: String) -> String {
        stateDir.map(absolute)
            ?? Seeder.defaultStateDirectory(
                workDirectory: workDirectory, instances: instances, entries: entries, contentBytes: contentBytes)
    }

    func validate() throws {
        guard instances > 0 else { throw ValidationError("--instances must be > 0") }
        guard entries > 0 else { throw ValidationError("--entries must be > 0") }
        guard contentBytes >= 12 else { throw ValidationError("--content-bytes must be >= 12") }
    }
}

func grouped(_ value: Int) -> String {
    let digits = String(value)
    var result = ""
    for (offset, character) in digits.reversed().enumerated() {
        if offset > 0, offset % 3 == 0 { result.append(",") }
        result.append(character)
    }
    return String(result.reversed())
}

func fixed(_ value: Double, _ decimals: Int = 2) -> String { String(format: "%.\(decimals)f", value) }

// MARK: seed

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write N push-only instances with 5-entry timelines straight into a state dir (SQLiteStateStore.apply).")

    @OptionGroup var common: CommonOptions
    @OptionGroup var seed: SeedOptions

    @Flag(help: "Seed again even when the state dir already holds these sizes.")
    var force = false

    func run() async throws {
        let work = try common.prepareWorkDirectory()
        let directory = seed.stateDirectory(workDirectory: work)
        print("seeding \(grouped(seed.instances)) instances × \(seed.entries) entries × \(seed.contentBytes) B into \(directory)")
        let info: SeedInfo
        if force {
            info = try await Seeder.seed(
                stateDirectory: directory, instances: seed.instances, entries: seed.entries, contentBytes: seed.contentBytes)
        } else {
            info = try await Seeder.ensure(
                stateDirectory: directory, instances: seed.instances, entries: seed.entries, contentBytes: seed.contentBytes)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/state.sqlite")[.size] as? Int) ?? 0
        print("seed time: \(fixed(info.seedSeconds, 1)) s (\(grouped(Int(Double(info.instances) / max(info.seedSeconds, 1e-9)))) instances/s); state.sqlite \(megabytes(size))")
    }
}

// MARK: restart

struct Restart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "SIGKILL to READY=1 with the seeded state, against sqlite3 reading every row of the same file.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var seed: SeedOptions

    @Option(help: "Timed restarts (the median is the figure).")
    var rounds: Int = 3

    func run() async throws {
        try await Self.measure(common: common, seed: seed, rounds: rounds)
    }

    static func measure(common: CommonOptions, seed: SeedOptions, rounds: Int) async throws {
        let widgetd = try common.widgetdPath()
        let work = try common.prepareWorkDirectory()
        let stateDirectory = seed.stateDirectory(workDirectory: work)
        let info = try await Seeder.ensure(
            stateDirectory: stateDirectory, instances: seed.instances, entries: seed.entries, contentBytes: seed.contentBytes)
        let database = stateDirectory + "/state.sqlite"
        let widgets = work + "/push-widgets"
        try Fixtures.writePushWidgets(into: widgets)
        let config = work + "/widgetd-scale.conf"
        try Fixtures.writeScaleConfig(to: config, instances: info.instances)

        let daemon = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: work + "/run", name: "restart", stateDirectory: stateDirectory,
            widgetsDirectory: widgets, configPath: config, clock: info.daemonClock))
        try? FileManager.default.removeItem(atPath: daemon.setup.logPath)
        print("restart: starting widgetd on \(grouped(info.instances)) instances (log \(daemon.setup.logPath))")
        let first = try daemon.start()
        print("  first start to READY=1: \(fixed(first, 3)) s")
        var times: [Double] = []
        for round in 1...max(1, rounds) {
            let seconds = try daemon.killAndRestart()
            times.append(seconds)
            print("  SIGKILL → READY=1, round \(round): \(fixed(seconds, 3)) s")
        }
        let rss = (try? daemon.memory().rss) ?? 0
        daemon.stop()

        // The reference: sqlite3 reading every row of every table of the same file.
        let scratch = work + "/run/sqlite-tables.txt"
        let tables = try ChildProcess.output(
            "/usr/bin/sqlite3", [database, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"], scratch: scratch
        ).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let script = tables.map { "SELECT * FROM \"\($0)\";" }.joined(separator: " ")
        var referenceTimes: [Double] = []
        for round in 1...max(1, rounds) {
            let (status, seconds) = try ChildProcess.run("/usr/bin/sqlite3", [database, script])
            guard status == 0 else { throw ScaleError("sqlite3 failed with status \(status)") }
            referenceTimes.append(seconds)
            print("  sqlite3 reading every row, round \(round): \(fixed(seconds, 3)) s")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
        let widgetdMedian = median(times)
        let referenceMedian = median(referenceTimes)
        let ratio = widgetdMedian / referenceMedian
        try common.emit(Figure(
            id: "scale.restart",
            figure: "restart: SIGKILL to READY=1 with \(grouped(info.instances)) instances, \(info.entries) entries each, \(info.contentBytes)-byte contents",
            widgetd: widgetdMedian, reference: referenceMedian, unit: "s", ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5,
            notes: "median of \(times.count); widgetd rounds \(times.map { fixed($0, 3) }.joined(separator: ", ")) s "
                + "(first start \(fixed(first, 3)) s; kill, reap, spawn, READY=1; --clock \(info.daemonClock)); "
                + "reference: sqlite3 CLI `SELECT *` of every table (\(tables.joined(separator: ", "))) to /dev/null, rounds "
                + "\(referenceTimes.map { fixed($0, 3) }.joined(separator: ", ")) s; state.sqlite \(megabytes(size)), page cache warm for both; "
                + "RSS after the last restart \(megabytes(rss))"))
    }
}

// MARK: memory

struct Memory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "RSS per instance above its contents: seeded state vs an empty state dir.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var seed: SeedOptions

    func run() async throws {
        try await Self.measure(common: common, seed: seed)
    }

    static func measure(common: CommonOptions, seed: SeedOptions) async throws {
        let widgetd = try common.widgetdPath()
        let work = try common.prepareWorkDirectory()
        let stateDirectory = seed.stateDirectory(workDirectory: work)
        let info = try await Seeder.ensure(
            stateDirectory: stateDirectory, instances: seed.instances, entries: seed.entries, contentBytes: seed.contentBytes)
        let widgets = work + "/push-widgets"
        try Fixtures.writePushWidgets(into: widgets)
        let config = work + "/widgetd-scale.conf"
        try Fixtures.writeScaleConfig(to: config, instances: info.instances)

        // The same daemon on an empty state dir: the baseline.
        let emptyState = work + "/empty-state"
        try? FileManager.default.removeItem(atPath: emptyState)
        let empty = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: work + "/run", name: "memory-empty", stateDirectory: emptyState,
            widgetsDirectory: widgets, configPath: config, clock: info.daemonClock))
        try? FileManager.default.removeItem(atPath: empty.setup.logPath)
        try empty.start()
        let baseline = try empty.settledMemory(limit: 10)
        empty.stop()
        print("memory: empty state RSS \(megabytes(baseline.rss))")

        let full = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: work + "/run", name: "memory-seeded", stateDirectory: stateDirectory,
            widgetsDirectory: widgets, configPath: config, clock: info.daemonClock))
        try? FileManager.default.removeItem(atPath: full.setup.logPath)
        let ready = try full.start()
        let held = try full.settledMemory(limit: 60)
        full.stop()
        print("memory: seeded state RSS \(megabytes(held.rss)) (peak \(megabytes(held.peak)), READY after \(fixed(ready, 1)) s)")

        let instances = Double(info.instances)
        let contentsPerInstance = Double(info.contentTotalBytes) / instances
        let delta = held.rss - baseline.rss
        let perInstance = (Double(delta) - Double(info.contentTotalBytes)) / instances
        try common.emit(Figure(
            id: "scale.memory",
            figure: "memory: RSS with \(grouped(info.instances)) such instances held (bytes per instance above contents)",
            widgetd: perInstance, reference: contentsPerInstance, unit: "B/instance", ratio: perInstance / contentsPerInstance,
            target: "≤ 512 B/instance", met: perInstance <= 512,
            notes: "VmRSS seeded \(held.rss) B (\(megabytes(held.rss)), VmHWM \(megabytes(held.peak))) − VmRSS empty state \(baseline.rss) B "
                + "(\(megabytes(baseline.rss))) = \(delta) B, \(fixed(Double(delta) / instances, 1)) B/instance in all; "
                + "contents \(info.contentTotalBytes) B (\(info.entries) × \(info.contentBytes) B per instance); "
                + "ratio = (RSS − contents)/N ÷ contents/N; RSS read once it settled after READY=1"))
    }
}

// MARK: core

struct Core: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The in-process core figures (same bodies as the ordo-one CoreBenchmarks), timed with ContinuousClock.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Instances in the scheduler (and deadlines in the reference heap).")
    var instances: Int = 1_000_000

    @Option(help: "Provider keys the scheduler's instances are spread over.")
    var providers: Int = 100

    @Option(help: "Stacks to re-evaluate (10 instances each).")
    var stacks: Int = 10_000

    @Option(help: "Timed rounds; the best is the figure.")
    var rounds: Int = 5

    @Option(help: "Stacks in the simulated day (10 instances each).")
    var simulateStacks: Int = 1_000

    @Option(help: "Donations (over 1000 topics) before the simulated day.")
    var simulateDonations: Int = 300

    @Option(help: "Only this figure: scheduler, rotation or simulate (default: all three).")
    var only: String?

    func validate() throws {
        guard only == nil || ["scheduler", "rotation", "simulate"].contains(only) else {
            throw ValidationError("--only takes scheduler, rotation or simulate")
        }
    }

    func run() async throws {
        try Self.measure(
            common: common, instances: instances, providers: providers, stacks: stacks, rounds: rounds, only: only,
            simulateStacks: simulateStacks, simulateDonations: simulateDonations)
    }

    /// What the core figures measured: no program runs, so not the installed one.
    static let inProcess = "in process: WidgetCore's scheduler, rotation and simulation called by widgetd-scale itself "
        + "(the same sources the package links, built by Benchmarks/ in release), not the installed program: "
        + "a library workload against a bare Heap has no program to run"

    static func measure(
        common: CommonOptions, instances: Int, providers: Int, stacks: Int, rounds: Int, only: String? = nil,
        simulateStacks: Int = 1_000, simulateDonations: Int = 300
    ) throws {
        if only == nil || only == "scheduler" {
            try measureScheduler(common: common, instances: instances, providers: providers, rounds: rounds)
        }
        if only == nil || only == "rotation" {
            try measureRotation(common: common, stacks: stacks, rounds: rounds)
        }
        if only == nil || only == "simulate" {
            try measureSimulate(common: common, stacks: simulateStacks, donations: simulateDonations, rounds: rounds)
        }
    }

    /// `simulate` over 24 h and its picture, in process: the target is the two together in a second.
    static func measureSimulate(common: CommonOptions, stacks: Int, donations: Int, rounds: Int) throws {
        let clock = ContinuousClock()
        print("core: building \(grouped(stacks)) stacks of 10 for the simulation…")
        let start = clock.now
        let workload = try SimulateWorkload(stacks: stacks, donations: donations)
        let setup = (clock.now - start).coreSeconds
        _ = workload.run()
        var runs: [(simulate: Double, draw: Double, cpu: Double)] = []
        for _ in 0..<max(1, rounds) { runs.append(workload.run()) }
        let best = runs.min { $0.simulate + $0.draw < $1.simulate + $1.draw }!
        var loads = [0.0, 0.0, 0.0]
        getloadavg(&loads, 3)
        let load = loads[0]
        let total = best.simulate + best.draw
        let report = workload.lastReport
        let counts = report?.counts ?? SimulationReport.Counts()
        try common.emit(Figure(
            id: "core.simulate",
            figure: "simulate: 24 h of \(grouped(stacks)) stacks of 10 instances, simulated and drawn",
            widgetd: total, reference: nil, unit: "s", ratio: nil, target: "≤ 1 s", met: total <= 1,
            notes: "best of \(runs.count) runs, wall (simulate + draw: "
                + runs.map { "\(fixed($0.simulate * 1000, 0)) + \(fixed($0.draw * 1000, 0)) ms" }.joined(separator: ", ")
                + "; CPU of both: " + runs.map { "\(fixed($0.cpu * 1000, 0)) ms" }.joined(separator: ", ")
                + "; 1-min load average \(fixed(load, 2))); DaemonState.simulate on a copy of the state, then SimulationPicture.svg of the report "
                + "(\(fixed(Double(workload.lastPictureBytes) / 1_048_576, 1)) MiB of SVG); each instance 26 hourly entries with "
                + "relevance (a third without a score), policy atEnd; \(grouped(counts.entryChanges)) entry changes, "
                + "\(grouped(counts.rotations)) rotations and \(grouped(counts.heldBack)) held back, "
                + "\(grouped(counts.budgeted + counts.exempt + counts.deferred)) reloads (\(grouped(counts.deferred)) deferred), "
                + "\(grouped(report?.donations.count ?? 0)) donation ticks from \(donations) donations over 1000 topics; "
                + "UTC calendar; setup \(fixed(setup, 1)) s").measuring(inProcess))
    }

    static func measureScheduler(common: CommonOptions, instances: Int, providers: Int, rounds: Int) throws {
        let clock = ContinuousClock()
        print("core: filling the scheduler with \(grouped(instances)) instances…")
        var start = clock.now
        var schedulerRate = 0.0
        var schedulerNotes = ""
        do {
            let workload = SchedulerWorkload(instances: instances, providers: providers, coalescingWindow: 0)
            let setup = (clock.now - start).coreSeconds
            CoreTiming.warmUp(maximum: 20_000) { _ = workload.run($0) }
            let result = CoreTiming.bestRate(rounds: rounds) { _ = workload.run($0) }
            schedulerRate = result.perSecond
            schedulerNotes = "setup \(fixed(setup, 1)) s; \(result.operationsPerRound) ops per round, rounds "
                + result.allRates.map { grouped(Int($0)) }.joined(separator: ", ")
                + "; \(fixed(Double(workload.reloads) / Double(max(1, workload.operations)), 3)) reloads popped per op"
        }
        print("core: filling the reference heap…")
        start = clock.now
        var heapRate = 0.0
        var heapNotes = ""
        do {
            let workload = HeapReferenceWorkload(size: instances)
            let setup = (clock.now - start).coreSeconds
            CoreTiming.warmUp(maximum: 100_000) { _ = workload.run($0) }
            let result = CoreTiming.bestRate(rounds: rounds) { _ = workload.run($0) }
            heapRate = result.perSecond
            heapNotes = "setup \(fixed(setup, 1)) s; \(result.operationsPerRound) ops per round, rounds "
                + result.allRates.map { grouped(Int($0)) }.joined(separator: ", ")
        }
        let ratio = schedulerRate / heapRate
        try common.emit(Figure(
            id: "core.scheduler",
            figure: "scheduler core: reschedule + pop-earliest per second at \(grouped(instances)) instances",
            widgetd: schedulerRate, reference: heapRate, unit: "ops/s", ratio: ratio, target: "≥ 0.5×", met: ratio >= 0.5,
            notes: "best of \(rounds) rounds. widgetd: ReloadScheduler (budget 70/day, 5 min spacing, coalescing window 0), "
                + "\(grouped(instances)) instances over \(providers) provider keys with policy due dates in the next 24 h; "
                + "op = setPolicyDue(random instance, by its record handle, now + U(1 s, 24 h)) + nextDeadline + "
                + "popDue(now: deadline) + completed(popped, by the handle the pop named, next due date); \(schedulerNotes). reference: Heap<UInt64> of \(grouped(instances)) "
                + "deadlines, op = insert(now + U(1 s, 24 h)) + popMin; \(heapNotes)").measuring(inProcess))

    }

    static func measureRotation(common: CommonOptions, stacks: Int, rounds: Int) throws {
        let clock = ContinuousClock()
        print("core: building \(grouped(stacks)) stacks of 10…")
        let start = clock.now
        let rotation = RotationWorkload(stacks: stacks, perStack: 10)
        let setup = (clock.now - start).coreSeconds
        _ = rotation.pass()
        var passTimes: [Double] = []
        for _ in 0..<max(1, rounds) {
            let elapsed = clock.measure { _ = rotation.pass() }
            passTimes.append(elapsed.coreSeconds)
        }
        let best = passTimes.min() ?? .nan
        let perStack = best / Double(stacks) * 1e6
        let members = Double(stacks * 10)
        try common.emit(Figure(
            id: "core.rotation",
            figure: "rotation: re-evaluating \(grouped(stacks)) stacks of 10 instances",
            widgetd: perStack, reference: nil, unit: "µs/stack", ratio: nil, target: "report", met: nil,
            notes: "best of \(passTimes.count) passes (\(passTimes.map { fixed($0 * 1000, 1) }.joined(separator: ", ")) ms per pass of "
                + "\(grouped(stacks)) stacks); per stack: StackRanking.rank + StackRotation.evaluate + next recheck instant, as "
                + "Engine.evaluateStack minus store/events; \(fixed(Double(rotation.totalSamples) / members, 1)) relevance samples "
                + "and \(fixed(Double(rotation.totalDonations) / members, 2)) matched donations per instance on average; "
                + "\(rotation.decisions) decisions (\(rotation.rotations) rotations) over \(passTimes.count + 1) passes 5 min apart; "
                + "Calendar.current (TZ=\(TimeZone.current.identifier)); setup \(fixed(setup, 1)) s").measuring(inProcess))
    }
}

// MARK: all

struct All: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "core, restart, memory and day in sequence, with the defaults.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var seed: SeedOptions

    func run() async throws {
        try Core.measure(common: common, instances: 1_000_000, providers: 100, stacks: 10_000, rounds: 5)
        try await Restart.measure(common: common, seed: seed, rounds: 3)
        try await Memory.measure(common: common, seed: seed)
        try Day.measure(common: common, options: DayOptions())
    }
}
