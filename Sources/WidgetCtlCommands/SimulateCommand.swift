import ArgumentParser
import Foundation
import WidgetCore
import WidgetPictures
import WidgetProtocol

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Dry run of the coming hours: rotations, entry changes, reloads. Changes nothing.",
        discussion: """
            The daemon steps a copy of its state from its clock's now, as its clock would. A reload \
            keeps the timeline held now: no provider runs.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(help: "How many hours ahead (default 24, at most 168).") var hours: Double?
    @Option(help: ArgumentHelp("Also draw the period as an SVG picture into this file.", valueName: "file"), completion: .file(extensions: ["svg"]))
    var svg: String?
    @Option(help: "At most this many items in each list of the answer (default 100000); the counts stay whole.") var limit: Int?

    /// Rows each table prints before it says how many more there are.
    static let rows = 200

    func run() throws {
        if let hours, !(hours > 0 && hours <= SimulateParams.maxHours) {
            throw CtlFailure.usage("--hours: a number of hours above 0, at most \(Int(SimulateParams.maxHours))")
        }
        if let limit, limit <= 0 { throw CtlFailure.usage("--limit: a positive number") }
        let report = try global.call(.simulate, SimulateParams(hours: hours, limit: limit), as: SimulateResult.self)
        if let svg {
            do {
                try Data(SimulationPicture.svg(report).utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
            } catch {
                throw CtlFailure(status: 1, message: "--svg: cannot write '\(svg)': \(error.localizedDescription)")
            }
        }
        global.emit(report) { Self.printTables(report) }
    }

    static func printTables(_ report: SimulationReport) {
        let counts = report.counts
        print("""
            simulated \(Show.date(report.start)) to \(Show.date(report.end)): \(report.stacks.count) \
            stack\(report.stacks.count == 1 ? "" : "s"), \
            \(counts.rotations) rotations, \(counts.heldBack) held back, \(counts.entryChanges) entry changes, reloads \
            \(counts.budgeted) budgeted, \(counts.exempt) exempt, \(counts.deferred) deferred\(report.truncated ? " (lists truncated)" : "")
            """)
        print("\nROTATIONS")
        var rotations = Table("DATE", "STACK", "FROM", "TO", "REASON")
        for rotation in report.rotations.prefix(rows) {
            rotations.add(
                Show.date(rotation.date), rotation.stack, rotation.from ?? "-", rotation.to ?? "(held: \(rotation.candidate))",
                rotation.reason.rawValue)
        }
        rotations.print()
        more(report.rotations.count)
        print("\nRELOADS")
        var reloads = Table("DATE", "INSTANCE", "KIND", "REASON", "BUDGET", "WANTED")
        for reload in report.reloads.prefix(rows) {
            reloads.add(
                Show.date(reload.date), reload.instance, reload.kind, reload.reason.rawValue, reload.budget.rawValue,
                reload.budget == .deferred ? Show.date(reload.wanted) : "")
        }
        reloads.print()
        more(report.reloads.count)
        print("\nENTRY CHANGES")
        var changes = Table("DATE", "INSTANCE")
        for change in report.entryChanges.prefix(rows) { changes.add(Show.date(change.date), change.instance) }
        changes.print()
        more(report.entryChanges.count)
    }

    private static func more(_ count: Int) {
        if count > rows { print("… \(count - rows) more (--json has them all)") }
    }
}
