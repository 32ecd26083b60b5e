import ArgumentParser
import Foundation
import WidgetCore
import WidgetDescriptorFiles
import WidgetPictures
import WidgetProtocol
import WidgetStore

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Dry run of the coming hours: rotations, entry changes, reloads. Changes nothing.",
        discussion: """
            The daemon steps a copy of its state from its clock's now, as its clock would. A reload \
            keeps the timeline held now: no provider runs, unless --run-providers asks each reload's \
            provider with the reload's simulated date as now (at most 1000 launches; that needs the \
            right to reload every kind). With --state, widgetctl reads a state directory itself, \
            read-only, with the descriptors and settings given, and needs no daemon.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "How many hours ahead (default 24, at most 168).") var hours: Double?
    @Option(help: ArgumentHelp("Also draw the period as an SVG picture into this file.", valueName: "file"), completion: .file(extensions: ["svg"]))
    var svg: String?
    @Option(help: "At most this many items in each list of the answer (default 100000); the counts stay whole.") var limit: Int?
    @Flag(
        name: .customLong("run-providers"),
        help: "Ask the providers at each simulated reload, with its simulated date as now (at most 1000 launches; the daemon's admin only).")
    var runProviders = false
    @Option(
        help: ArgumentHelp("Simulate this state directory (widgetd's --state-dir) instead of asking a daemon.", valueName: "dir"),
        completion: .directory)
    var state: String?
    @Option(
        name: .customLong("widgets-dir"),
        help: ArgumentHelp("With --state: a widgets directory to read descriptors from (repeatable; default /etc/widgetd/widgets.d).", valueName: "dir"),
        completion: .directory)
    var widgetsDirectories: [String] = []
    @Option(
        help: ArgumentHelp("With --state: the settings file (default /etc/widgetd/widgetd.conf when it exists, else the defaults).", valueName: "file"),
        completion: .file())
    var config: String?
    @Option(help: ArgumentHelp("With --state: the instant to start from (ISO 8601; default now).", valueName: "date")) var at: String?

    /// Rows each table prints before it says how many more there are.
    static let rows = 200

    func run() throws {
        if let hours, !(hours > 0 && hours <= SimulateParams.maxHours) {
            throw CtlFailure.usage("--hours: a number of hours above 0, at most \(Int(SimulateParams.maxHours))")
        }
        if let limit, limit <= 0 { throw CtlFailure.usage("--limit: a positive number") }
        if state == nil, !widgetsDirectories.isEmpty || config != nil || at != nil {
            throw CtlFailure.usage("--widgets-dir, --config and --at go with --state")
        }
        if state != nil, runProviders {
            throw CtlFailure.usage("--run-providers runs the providers through a daemon: it does not go with --state")
        }
        let report = try state.map { try simulateLocally($0) }
            ?? global.call(
                Methods.Simulate.self, SimulateParams(hours: hours, limit: limit, runProviders: runProviders ? true : nil))
        if let svg {
            do {
                try Data(SimulationPicture.svg(report).utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
            } catch {
                throw CtlFailure(status: 1, message: "--svg: cannot write '\(svg)': \(error.localizedDescription)")
            }
        }
        global.emit(report) { Self.printTables(report) }
    }

    /// The daemon's own restore and simulation, run here on what the directory holds, so the
    /// answer is the one a daemon started on it would give.
    private func simulateLocally(_ directory: String) throws -> SimulationReport {
        var start = Date()
        if let at {
            guard let date = ISO8601.date(from: at) else { throw CtlFailure.usage("--at: '\(at)' is not an ISO 8601 date with a zone") }
            start = date
        }
        let persisted: PersistedState
        do {
            persisted = try SQLiteStateStore.snapshot(directory: directory)
        } catch {
            throw CtlFailure(status: 1, message: "--state: \(error)")
        }
        var settings = DaemonSettings()
        let configPath = config ?? (FileManager.default.fileExists(atPath: "/etc/widgetd/widgetd.conf") ? "/etc/widgetd/widgetd.conf" : nil)
        if let configPath {
            guard let text = try? String(contentsOfFile: configPath, encoding: .utf8) else {
                throw CtlFailure(status: 1, message: "--config: cannot read '\(configPath)'")
            }
            do {
                settings = try DaemonSettings.parse(text)
            } catch {
                throw CtlFailure(status: 1, message: "--config: \(configPath): \(error)")
            }
        }
        let catalog = DescriptorCatalog.load(from: widgetsDirectories.isEmpty ? ["/etc/widgetd/widgets.d"] : widgetsDirectories)
        for problem in catalog.problems { Terminal.printError("widgetctl: descriptor skipped: \(Terminal.text("\(problem)"))") }
        var daemonState = DaemonState(descriptors: catalog.descriptors, settings: settings, calendar: .current)
        _ = daemonState.restore(persisted, at: start)
        let hours = self.hours ?? SimulateParams.defaultHours
        return daemonState.simulate(
            from: start, to: start.addingTimeInterval(hours * 3600), limit: limit ?? SimulateParams.defaultLimit)
    }

    static func printTables(_ report: SimulationReport) {
        let counts = report.counts
        let providers = counts.providerLaunches > 0 ? ", \(counts.providerLaunches) provider launches, \(counts.failed) failed" : ""
        Terminal.print(lines: """
            simulated \(Show.date(report.start)) to \(Show.date(report.end)): \(report.stacks.count) \
            stack\(report.stacks.count == 1 ? "" : "s"), \
            \(counts.rotations) rotations, \(counts.heldBack) held back, \(counts.entryChanges) entry changes, reloads \
            \(counts.budgeted) budgeted, \(counts.exempt) exempt, \(counts.deferred) deferred\(providers)\(report.truncated ? " (truncated)" : "")
            """)
        Terminal.print(lines: "\nROTATIONS")
        var rotations = Table("DATE", "STACK", "FROM", "TO", "REASON")
        for rotation in report.rotations.prefix(rows) {
            rotations.add(
                Show.date(rotation.date), rotation.stack, rotation.from ?? "-", rotation.to ?? "(held: \(rotation.candidate))",
                rotation.reason.rawValue)
        }
        rotations.print()
        more(report.rotations.count)
        Terminal.print(lines: "\nRELOADS")
        var reloads = Table("DATE", "INSTANCE", "KIND", "REASON", "BUDGET", "WANTED", "FAILED")
        for reload in report.reloads.prefix(rows) {
            reloads.add(
                Show.date(reload.date), reload.instance, reload.kind, reload.reason.rawValue, reload.budget.rawValue,
                reload.budget == .deferred ? Show.date(reload.wanted) : "", reload.error ?? "")
        }
        reloads.print()
        more(report.reloads.count)
        Terminal.print(lines: "\nENTRY CHANGES")
        var changes = Table("DATE", "INSTANCE")
        for change in report.entryChanges.prefix(rows) { changes.add(Show.date(change.date), change.instance) }
        changes.print()
        more(report.entryChanges.count)
    }

    private static func more(_ count: Int) {
        if count > rows { Terminal.print("… \(count - rows) more (--json has them all)") }
    }
}
