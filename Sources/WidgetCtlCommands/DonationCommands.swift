import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol

struct DonateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "donate", abstract: "Record that the user looked at INTENT's information (an intent donation).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The intent type, as in a descriptor's intent.type.") var intent: String
    @Option(name: .customLong("set"), help: "Parameter NAME=VALUE.") var assignments: [String] = []
    @Option(help: "When (ISO 8601); default now.") var at: String?
    @Option(help: "An identifier, to delete it later.") var id: String?
    @Option(help: "A group identifier, to delete a group later.") var group: String?

    func run() throws {
        var date: Date?
        if let at {
            guard let parsed = ISO8601.date(from: at) else { throw CtlFailure.usage("--at: '\(at)' is not an ISO 8601 date with a zone") }
            date = parsed
        }
        let params = DonateParams(intentType: intent, parameters: try Assignments.parse(assignments), date: date, id: id, group: group)
        let result = try global.call(Methods.Donate.self, params)
        global.emit(result) {
            Terminal.print("donation recorded; matches \(result.matched.isEmpty ? "no instance" : result.matched.joined(separator: " "))")
        }
    }
}

struct DonationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "donations", abstract: "List or delete intent donations.", subcommands: [List.self, Delete.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "The donations retained, oldest first (a kind's owner sees its own intent types').")
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("intent"), help: "Only donations of this intent type.") var intentType: String?

        func run() throws {
            let donations = try global.call(Methods.DonationsList.self, DonationsListParams(intentType: intentType))
            global.emit(donations) {
                var table = Table("DATE", "INTENT", "PARAMETERS", "ID", "GROUP")
                for donation in donations {
                    table.add(
                        Show.date(donation.date), donation.intentType, Show.configuration(donation.parameters),
                        donation.id ?? "-", donation.group ?? "-")
                }
                table.print()
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete donations by id, by group, or all.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Delete the donation recorded with this --id.") var id: String?
        @Option(help: "Delete every donation recorded with this --group.") var group: String?
        @Flag(help: "Delete every donation (for a kind's owner: every donation of its own intent types).") var all = false

        func validate() throws {
            guard [id != nil, group != nil, all].filter({ $0 }).count == 1 else {
                throw ValidationError("give exactly one of --id, --group or --all")
            }
        }

        func run() throws {
            let result = try global.call(
                Methods.DonationsDelete.self, DonationsDeleteParams(id: id, group: group, all: all ? true : nil))
            global.emit(result) { Terminal.print("deleted \(result.deleted) donation\(result.deleted == 1 ? "" : "s")") }
        }
    }
}

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "Rotation decisions, newest last.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this stack's decisions.", completion: Completions.stacks) var stack: String?
    @Option(help: "Only decisions from this instant on (ISO 8601).") var since: String?
    @Option(help: "At most this many decisions, the newest (default 100).") var limit: Int?

    func run() throws {
        var sinceDate: Date?
        if let since {
            guard let parsed = ISO8601.date(from: since) else { throw CtlFailure.usage("--since: '\(since)' is not an ISO 8601 date with a zone") }
            sinceDate = parsed
        }
        let decisions = try global.call(Methods.Log.self, LogParams(stack: stack, since: sinceDate, limit: limit))
        global.emit(decisions) {
            var table = Table("DATE", "STACK", "FROM", "TO", "REASON", "CANDIDATES")
            for decision in decisions {
                let candidates = decision.candidates.map { "\($0.instance)=\(ExplainCommand.format($0.rank))\($0.eligible ? "" : "!")" }
                table.add(
                    Show.date(decision.date), decision.stack, decision.from ?? "-", decision.to ?? "(held: \(decision.candidate))",
                    decision.reason.rawValue, candidates.joined(separator: " "))
            }
            table.print()
        }
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "A stack's ranking now, and why its top is what it is.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The stack.", completion: Completions.stacks) var name: String

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// `hidden` where the daemon left them out: the caller may not list that intent type's donations.
    static func donations(_ candidate: RankedCandidate) -> String {
        if candidate.donationsHidden == true { return "hidden" }
        return candidate.donations.isEmpty ? "-" : candidate.donations.joined(separator: ",")
    }

    func run() throws {
        let explanation = try global.call(Methods.Explain.self, StackNameParams(name: name))
        global.emit(explanation) {
            Terminal.print("\(explanation.stack) at \(Show.date(explanation.now)): top \(explanation.top ?? "-")")
            var table = Table("", "INSTANCE", "RANK", "RELEVANCE", "SCORE", "WINDOW", "AFFINITY", "DONATIONS", "ELIGIBLE", "CLUE")
            for candidate in explanation.candidates {
                let window = candidate.relevanceSince.map { since in
                    "\(Show.date(since)) → \(candidate.relevanceUntil.map { Show.date($0) } ?? "next relevance")"
                } ?? "-"
                table.add(
                    candidate.instance == explanation.top ? "▶" : " ", candidate.instance, Self.format(candidate.rank),
                    Self.format(candidate.relevance), candidate.score.map { String($0) } ?? "-", window, Self.format(candidate.affinity),
                    Self.donations(candidate), candidate.eligible ? "yes" : "no (score <= 0)", candidate.clue?.text ?? "-")
            }
            table.print()
            Terminal.print(explanation.why)
        }
    }
}
