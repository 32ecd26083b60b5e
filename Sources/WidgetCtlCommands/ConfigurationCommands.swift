import ArgumentParser
import Foundation
import WidgetCore
import WidgetProtocol

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "The provider's snapshot of KIND for a configuration (what a widget gallery shows).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The widget kind.", completion: Completions.kinds) var kind: String
    @Option(help: "The family to preview.", completion: Completions.families) var family: String
    @Option(name: .customLong("set"), help: "Configuration NAME=VALUE (VALUE as JSON when it parses, else a string).")
    var assignments: [String] = []

    func run() throws {
        let params = PreviewParams(kind: kind, family: family, configuration: try Assignments.parse(assignments))
        EntryOutput.show(try global.call(Methods.Preview.self, params), global)
    }
}

struct PlaceholderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placeholder", abstract: "The provider's placeholder entry for KIND (shown before any timeline).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The widget kind.", completion: Completions.kinds) var kind: String
    @Option(help: "The family.", completion: Completions.families) var family: String

    func run() throws {
        EntryOutput.show(try global.call(Methods.Placeholder.self, PreviewParams(kind: kind, family: family)), global)
    }
}

struct OptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "options", abstract: "Dynamic options the provider offers for an entity PARAMETER of KIND.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The widget kind.", completion: Completions.kinds) var kind: String
    @Argument(help: "An entity parameter of its intent.") var parameter: String
    @Option(help: "Only options matching this text.") var search: String?
    @Option(help: "The family (default: the kind's first).", completion: Completions.families) var family: String?

    func run() throws {
        let result = try global.call(
            Methods.Options.self, OptionsParams(kind: kind, parameter: parameter, search: search, family: family))
        global.emit(result) {
            var table = Table("ID", "DISPLAY")
            for option in result.options { table.add(option.id, option.display) }
            table.print()
        }
    }
}

enum EntryOutput {
    static func show(_ result: EntryResult, _ global: GlobalOptions) {
        global.emit(result) {
            Terminal.print("\(result.kind)  \(result.family.rawValue)  configuration: \(Show.configuration(result.configuration))")
            Terminal.print("date:      \(Show.date(result.entry.date))")
            if let relevance = result.entry.relevance {
                Terminal.print("relevance: \(Show.relevance(relevance))")
            }
            let content = (try? WidgetJSON.prettyEncoder.encode(result.entry.content)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            Terminal.print(lines: "content:   \(content.replacingOccurrences(of: "\n", with: "\n           "))")
        }
    }
}
