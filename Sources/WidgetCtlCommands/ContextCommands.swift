import ArgumentParser
import Foundation
import WidgetProtocol

struct ContextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "context", abstract: "What widgetd knows of the session now, and the values hosts report for clues.",
        subcommands: [Current.self, SetValues.self], defaultSubcommand: Current.self)

    struct Current: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "The sources, the session's values and the hosts' values (a location only as known or unknown).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let info = try global.call(Methods.Context.self)
            global.emit(info) { ContextCommand.print(info) }
        }
    }

    struct SetValues: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Sets values for `context` clues (host group); --unset removes one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "KEY=VALUE pairs.") var values: [String] = []
        @Option(help: "A key to remove (repeatable).") var unset: [String] = []

        func validate() throws {
            if values.isEmpty && unset.isEmpty { throw ValidationError("name one or more KEY=VALUE, or --unset KEY") }
        }

        func run() throws {
            var params: [String: String?] = [:]
            for item in values {
                guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                    throw CtlFailure.usage("context set wants KEY=VALUE, got '\(item)'")
                }
                params[String(item[..<equals])] = .some(String(item[item.index(after: equals)...]))
            }
            for key in unset { params[key] = .some(nil) }
            let info = try global.call(Methods.ContextSet.self, ContextSetParams(values: params))
            global.emit(info) { ContextCommand.print(info) }
        }
    }

    static func print(_ info: ContextInfo) {
        var sources = Table("SOURCE", "STATE", "SINCE")
        for source in info.sources { sources.add(source.source, source.state, source.since.map { Show.date($0) } ?? "-") }
        sources.print()
        Terminal.print("")
        var values = Table("VALUE", "NOW", "SINCE")
        for value in info.values { values.add(value.name, value.value ?? "unknown", value.since.map { Show.date($0) } ?? "-") }
        for value in info.host { values.add("context.\(value.name)", value.value ?? "unknown", value.since.map { Show.date($0) } ?? "-") }
        values.print()
    }
}
