import ArgumentParser
import WidgetCore
import WidgetProtocol

/// `widgets`: the descriptors the daemon loaded (the default), and reading them again.
struct WidgetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgets", abstract: "Descriptors: those loaded (the default), or read the widgets directories again.",
        subcommands: [WidgetsListCommand.self, WidgetsReloadCommand.self], defaultSubcommand: WidgetsListCommand.self)
}

struct WidgetsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Descriptors loaded, and files skipped.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let result = try global.call(.widgets, EmptyParams(), as: WidgetsResult.self)
        global.emit(result) {
            var table = Table("KIND", "NAME", "FAMILIES", "INSTANCES", "OWNER")
            for widget in result.widgets {
                table.add(
                    widget.kind, widget.displayName, widget.supportedFamilies.map(\.rawValue).joined(separator: ","),
                    "\(widget.instances)", widget.owner.map(Self.ownerText) ?? "-")
            }
            table.print()
            for problem in result.problems {
                print("skipped \(problem.path): \(problem.reason)")
            }
        }
    }

    static func ownerText(_ owner: KindOwner) -> String {
        switch owner {
        case .user(let name, _): "user:\(name)"
        case .group(let name, _): "group:\(name)"
        }
    }
}

struct WidgetsReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload", abstract: "Read the widgets directories again now; print the kinds added, changed and removed.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let changes = try global.call(.widgetsReload, EmptyParams(), as: DescriptorChanges.self)
        global.emit(changes) {
            for line in Self.describe(changes) { print(line) }
        }
    }

    /// A line per kind added, changed or removed and per file skipped, then the count.
    static func describe(_ changes: DescriptorChanges) -> [String] {
        var lines = changes.added.map { "added    \($0)" } + changes.changed.map { "changed  \($0)" }
            + changes.removed.map { "removed  \($0)" }
        lines += changes.problems.map { "skipped  \($0.path): \($0.reason)" }
        let count = "\(changes.kinds) kind\(changes.kinds == 1 ? "" : "s") loaded"
        lines.append(changes.changesKinds ? count : "no kind changed; \(count)")
        return lines
    }
}
