import ArgumentParser
import BenchSupport
import Foundation
import WidgetCore
import WidgetdClient

/// Sizes of the simulated day (a plain struct so `all` can use the defaults).
struct DayOptions {
    var instances = 10_000
    var stacks = 1000
    var donations = 300
    var topics = 1000
    /// Simulated hours per `clock.advance`.
    var stepHours = 1
    var start = "2026-01-05T00:00:00Z"
}

/// JSON-RPC calls through `WidgetdConnection.raw`, results read with JSONSerialization (the
/// protocol's message types are not a product of the root package).
final class RPC {
    let connection: WidgetdConnection

    init(socket: String) throws {
        connection = try WidgetdConnection(path: socket)
    }

    @discardableResult
    func call(_ method: String, _ params: [String: JSONValue] = [:]) throws -> Any? {
        let line = try connection.raw(method, params)
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            throw ScaleError("\(method): answer is not a JSON object: \(String(decoding: line, as: UTF8.self))")
        }
        if let error = object["error"] as? [String: Any] {
            throw ScaleError("\(method) failed: \(error["message"] ?? "?") (\(error["code"] ?? "?"))")
        }
        return object["result"]
    }
}

struct Day: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A simulated day on the virtual clock: instances, stacks and donations over the socket, then clock.advance 24 h.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Instances to create over the socket.")
    var instances: Int = 10_000

    @Option(help: "Stacks (instances are spread evenly over them, 10 each by default).")
    var stacks: Int = 1000

    @Option(help: "Intent donations recorded before the day starts.")
    var donations: Int = 300

    @Option(name: .customLong("step-hours"), help: "Simulated hours per clock.advance.")
    var stepHours: Int = 1

    func validate() throws {
        guard instances > 0, stacks > 0, stacks <= instances else { throw ValidationError("need 0 < --stacks <= --instances") }
        guard stepHours > 0, 24 % stepHours == 0 else { throw ValidationError("--step-hours must divide 24") }
    }

    func run() async throws {
        var options = DayOptions()
        options.instances = instances
        options.stacks = stacks
        options.donations = donations
        options.stepHours = stepHours
        try Self.measure(common: common, options: options)
    }

    static func measure(common: CommonOptions, options: DayOptions) throws {
        let simulation = try DaySimulation(common: common, options: options)
        defer { simulation.daemon.stop() }
        let warm = try simulation.simulateDay("day 1 (warm-up)")
        usleep(500_000)
        let rssAfterWarm = try simulation.daemon.memory()
        let launchesAfterWarm = simulation.launches()
        let measured = try simulation.simulateDay("day 2")
        usleep(500_000)
        let rssAfterDay = try simulation.daemon.memory()
        let launchesAfterDay = simulation.launches()
        let statusText = simulation.statusText()
        let stateSize = simulation.stateSize()

        let dayLaunches = launchesAfterDay.launches - launchesAfterWarm.launches
        let dayReloads = launchesAfterDay.instances - launchesAfterWarm.instances
        try common.emit(Figure(
            id: "scale.day",
            figure: "simulated day: \(grouped(options.instances)) instances, \(grouped(options.stacks)) stacks, virtual clock advanced 24 h",
            widgetd: measured.seconds, reference: nil, unit: "s/simulated day", ratio: nil, target: "≤ 10 s/simulated day",
            met: measured.seconds <= 10,
            notes: "second simulated day (after a warm-up day of \(fixed(warm.seconds, 2)) s): \(24 / options.stepHours) × clock.advance "
                + "\(options.stepHours)h, slowest step \(fixed(measured.steps.max() ?? 0, 2)) s, \(measured.processed) scheduler events "
                + "processed, \(dayLaunches) provider launches reloading \(dayReloads) instances (sh batch provider: 4 hourly entries "
                + "with relevance, atEnd); \(options.donations) donations over \(options.topics) topics; budget 70/day, 5 min; "
                + "set-up over the socket \(fixed(simulation.setupSeconds, 1)) s; status: \(statusText); state.sqlite \(megabytes(stateSize))"))
        let growth = Double(rssAfterDay.rss - rssAfterWarm.rss) / Double(rssAfterWarm.rss) * 100
        try common.emit(Figure(
            id: "scale.day.rss-growth",
            figure: "simulated day: RSS growth over the second day (\(grouped(options.instances)) instances, \(grouped(options.stacks)) stacks)",
            widgetd: growth, reference: nil, unit: "%", ratio: nil, target: "< 5 %", met: growth < 5,
            notes: "VmRSS after the warm-up day \(rssAfterWarm.rss) B (\(megabytes(rssAfterWarm.rss))), after the second day "
                + "\(rssAfterDay.rss) B (\(megabytes(rssAfterDay.rss))); VmHWM \(megabytes(rssAfterDay.peak)); "
                + "VmRSS after set-up, before the warm-up day \(megabytes(simulation.rssAfterSetup.rss))"))
    }
}

/// The simulated day's daemon, set up and ready to advance: `day` runs two days of it and
/// `soak` a week.
final class DaySimulation {
    let options: DayOptions
    let daemon: RunningDaemon
    let directory: String
    let launchLog: String
    let rpc: RPC
    private(set) var setupSeconds = 0.0
    private(set) var rssAfterSetup: ProcessMemory
    private let clock = ContinuousClock()

    /// Starts widgetd on the virtual clock and sets up stacks, instances (each added to its
    /// stack), donations and the first loads, over the socket.
    init(common: CommonOptions, options: DayOptions, extraEnvironment: [String: String] = [:]) throws {
        self.options = options
        let widgetd = try common.widgetdPath()
        let work = try common.prepareWorkDirectory()
        directory = work + "/day"
        let manager = FileManager.default
        if manager.fileExists(atPath: directory) { try manager.removeItem(atPath: directory) }
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        launchLog = directory + "/launches.log"
        try Fixtures.writeDayWidgets(into: directory + "/widgets", launchLog: launchLog)
        try Fixtures.writeDayConfig(to: directory + "/widgetd.conf")

        daemon = try RunningDaemon(DaemonSetup(
            executable: widgetd, runDirectory: directory, name: "widgetd", stateDirectory: directory + "/state",
            widgetsDirectory: directory + "/widgets", configPath: directory + "/widgetd.conf", clock: "virtual:" + options.start,
            extraEnvironment: extraEnvironment))
        print("day: starting widgetd (log \(daemon.setup.logPath))")
        try daemon.start(timeout: 120)
        rpc = try RPC(socket: daemon.setup.socketPath)

        let begin = clock.now
        let perStack = options.instances / options.stacks
        let names = (0..<options.stacks).map { index -> String in
            let digits = String(index)
            return "stack-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        for name in names {
            try rpc.call("stack.create", ["name": .string(name)])
        }
        var ids: [String] = []
        ids.reserveCapacity(options.instances)
        for index in 0..<options.instances {
            let result = try rpc.call(
                "add",
                ["kind": .string(Fixtures.dayKind), "family": .string("systemSmall"),
                 "configuration": .object(["topic": .integer(Int64(index % options.topics))])])
            guard let id = (result as? [String: Any])?["id"] as? String else { throw ScaleError("add: no id in \(String(describing: result))") }
            ids.append(id)
            if (index + 1) % 2000 == 0 { print("  added \(index + 1) instances (\(fixed((clock.now - begin).coreSeconds, 1)) s)") }
        }
        for (stack, name) in names.enumerated() {
            let members = ids[(stack * perStack)..<min(ids.count, (stack + 1) * perStack)]
            try rpc.call("stack.add", ["name": .string(name), "instances": .array(members.map { .string($0) })])
        }
        let startDate = ISO8601.date(from: options.start)!
        var random = SplitMix64(seed: 0xDA7)
        for index in 0..<options.donations {
            // In the two weeks before the day, at times of day between 06:00 and 23:00.
            let date = startDate.addingTimeInterval(
                -Double(1 + random.below(14)) * 86400 + 6 * 3600 + Double(random.below(17 * 3600)))
            try rpc.call(
                "donate",
                ["intentType": .string(Fixtures.dayIntentType),
                 "parameters": .object(["topic": .integer(Int64(random.below(UInt64(options.topics))))]),
                 "date": .string(ISO8601.string(from: date)), "id": .string("d\(index)")])
        }
        try rpc.call("clock.advance", ["seconds": .number(0)])
        setupSeconds = (clock.now - begin).coreSeconds
        rssAfterSetup = try daemon.memory()
        let launches = Self.launches(launchLog)
        print("  set-up: \(fixed(setupSeconds, 1)) s (\(options.instances) adds, \(options.stacks) stacks, \(options.donations) donations, \(launches.launches) provider launches)")
    }

    /// Advances the virtual clock 24 h in steps of `stepHours`.
    func simulateDay(_ label: String) throws -> (seconds: Double, processed: Int, steps: [Double]) {
        var processed = 0
        var steps: [Double] = []
        let dayStart = clock.now
        for _ in 0..<(24 / options.stepHours) {
            let stepStart = clock.now
            let result = try rpc.call("clock.advance", ["seconds": .number(Double(options.stepHours * 3600))])
            steps.append((clock.now - stepStart).coreSeconds)
            processed += ((result as? [String: Any])?["processed"] as? Int) ?? 0
        }
        let seconds = (clock.now - dayStart).coreSeconds
        print("  \(label): \(fixed(seconds, 2)) s wall, \(processed) processed; slowest step \(fixed(steps.max() ?? 0, 2)) s")
        return (seconds, processed, steps)
    }

    func launches() -> (launches: Int, instances: Int) { Self.launches(launchLog) }

    /// The daemon's open file descriptors (entries of /proc/PID/fd).
    func openDescriptors() throws -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd") else {
            throw ScaleError("cannot list /proc/\(daemon.pid)/fd")
        }
        return entries.count
    }

    func statusText() -> String {
        let status = try? rpc.call("status")
        return (status as? [String: Any]).map { dictionary in
            ["instances", "stacks", "pendingReloads", "now"].compactMap { key in dictionary[key].map { "\(key) \($0)" } }.joined(separator: ", ")
        } ?? "-"
    }

    func stateSize() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: directory + "/state/state.sqlite")[.size] as? Int) ?? 0
    }

    /// Launches logged by the provider so far, and the instances they served.
    static func launches(_ path: String) -> (launches: Int, instances: Int) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (0, 0) }
        let counts = text.split(separator: "\n").compactMap { Int($0) }
        return (counts.count, counts.reduce(0, +))
    }
}
