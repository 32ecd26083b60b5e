import ArgumentParser
import WidgetCore
import WidgetProtocol

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Place an instance of KIND; prints its id.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The widget kind, e.g. com.example.clock.", completion: Completions.kinds) var kind: String
    @Option(
        help: "systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular or accessoryInline.",
        completion: Completions.families)
    var family: String
    @Option(name: .customLong("set"), help: "Configuration NAME=VALUE (VALUE as JSON when it parses, else a string).")
    var assignments: [String] = []
    @Option(help: "Also append the new instance to this stack.", completion: Completions.stacks) var stack: String?

    func run() throws {
        let configuration = try Assignments.parse(assignments)
        let result = try global.call(
            Methods.Add.self, AddParams(kind: kind, family: family, configuration: configuration, stack: stack))
        global.emit(result) { Terminal.print(result.id) }
    }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an instance.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance id.", completion: Completions.instances) var id: String

    func run() throws {
        let result = try global.call(Methods.Remove.self, InstanceParams(id: id))
        global.emit(result) { Terminal.print("removed \(result.removed)") }
    }
}

struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "configure", abstract: "Change an instance's configuration.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Instance id.", completion: Completions.instances) var id: String
    @Option(name: .customLong("set"), help: "NAME=VALUE to set (VALUE as JSON when it parses, else a string).")
    var assignments: [String] = []
    @Flag(help: "Replace the whole configuration (parameters not set take their defaults).") var replace = false

    func validate() throws {
        guard !assignments.isEmpty || replace else { throw ValidationError("give at least one --set NAME=VALUE, or --replace") }
    }

    func run() throws {
        let configuration = try Assignments.parse(assignments)
        let info = try global.call(
            Methods.Configure.self, ConfigureParams(id: id, configuration: configuration, replace: replace ? true : nil))
        global.emit(info) { Terminal.print("\(info.id) configuration: \(Show.configuration(info.configuration))") }
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Instances (WidgetInfo) with their current entry.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let instances = try global.call(Methods.List.self)
        global.emit(instances) {
            var table = Table("ID", "KIND", "FAMILY", "CONFIGURATION", "CURRENT", "NEXT RELOAD")
            let now = LiveText.now(global, for: instances.map { $0.currentEntry?.content })
            for info in instances {
                let current = info.failure.map { "failed: " + $0 }
                    ?? (info.hasTimeline ? Show.json(LiveText.content(info.currentEntry?.content, now: now), limit: 40) : "(placeholder)")
                table.add(info.id, info.kind, info.family.rawValue, Show.configuration(info.configuration), current, Show.date(info.nextReload))
            }
            table.print()
        }
    }
}
