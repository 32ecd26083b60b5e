import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol

struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "reloadTimelines(ofKind:) for each KIND and each --instance ID, or reloadAllTimelines() with --all.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Kinds to reload.", completion: Completions.kinds) var kinds: [String] = []
    @Option(
        name: .customLong("instance"), parsing: .upToNextOption,
        help: ArgumentHelp("Instances to reload, one by one (the rest of their kind is left alone).", valueName: "id"),
        completion: Completions.instances)
    var instances: [String] = []
    @Flag(help: "Reload every kind.") var all = false
    @Flag(name: .customLong("user-initiated"), help: "The user asked (a tap): exempt from the budget.")
    var userInitiated = false

    func validate() throws {
        let named = !kinds.isEmpty || !instances.isEmpty
        if all == named { throw ValidationError("name one or more KINDs or --instance IDs, or give --all") }
    }

    func run() throws {
        let result: ReloadResult = all
            ? try global.call(Methods.ReloadAllTimelines.self, ReloadAllParams(userInitiated: userInitiated))
            : try global.call(
                Methods.ReloadTimelines.self,
                ReloadTimelinesParams(kinds: kinds, instances: instances.isEmpty ? nil : instances, userInitiated: userInitiated))
        global.emit(result) {
            Terminal.print("reload requested for \(result.instances.count) instance\(result.instances.count == 1 ? "" : "s")\(result.instances.isEmpty ? "" : ": " + result.instances.joined(separator: " "))")
        }
    }
}

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "schedule", abstract: "Pending reloads, earliest first.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let items = try global.call(Methods.Schedule.self)
        global.emit(items) {
            var table = Table("DUE", "INSTANCE", "KIND", "REASON", "NOTE")
            for item in items {
                var note = item.deferredBy == "budget" ? "deferred by budget (wanted \(Show.date(item.wanted)))" : ""
                if let held = item.heldReason {
                    note = "\(held.rawValue) reload held: \(BudgetCommand.why(item.reason))"
                }
                if item.inFlight { note = "after the reload running now" }
                table.add(Show.date(item.due), item.instance, item.kind, item.reason.rawValue, note)
            }
            table.print()
        }
    }
}

struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "budget", abstract: "An instance's reload budget.")

    /// Why a reload is held, and when it runs (docs/clues.md).
    static func why(_ hold: ReloadReason) -> String {
        switch hold {
        case .locked: "the session is locked; runs when it unlocks"
        case .powerSaver: "the power profile is power-saver; runs when it changes"
        default: "no host has shown it lately; runs when one does"
        }
    }
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance id.", completion: Completions.instances) var id: String

    func run() throws {
        let budget = try global.call(Methods.Budget.self, InstanceParams(id: id))
        global.emit(budget) {
            guard budget.enabled else {
                Terminal.print("\(budget.instance): budget off (--no-budget)")
                return
            }
            let causes = (budget.loweredBy ?? ["hidden"]).map { $0 == "battery" ? "on battery" : "no host has shown it in 24 h" }
            let lowered = budget.fullLimit.map { " (lowered from \($0): \(causes.joined(separator: ", ")))" } ?? ""
            let shown = budget.shown == true ? "now" : budget.lastShown.map { Show.date($0) } ?? "never"
            Terminal.print(lines: """
                \(budget.instance): \(budget.used) of \(budget.limit) budgeted reloads used in the last 24 h\(lowered)
                last shown by a host: \(shown)
                minimum spacing: \(DurationText.format(budget.spacing))
                last budgeted reload: \(Show.date(budget.lastReload))
                next budgeted reload allowed: \(budget.nextAllowed.map { Show.date($0) } ?? "now")
                """)
            if let held = budget.held { Terminal.print("budgeted reloads held now: \(BudgetCommand.why(held))") }
            if let pending = budget.pending {
                if let held = pending.heldReason {
                    Terminal.print("pending: \(held.rawValue) reload held (\(pending.reason.rawValue)): \(BudgetCommand.why(pending.reason))")
                } else {
                    Terminal.print("pending: \(pending.reason.rawValue) due \(Show.date(pending.due))\(pending.deferredBy == "budget" ? " (deferred by budget from \(Show.date(pending.wanted)))" : "")")
                }
            }
        }
    }
}
