import ArgumentParser
import Foundation
import WidgetdClient

/// `widgetctl`: the command-line client of the control socket.
public struct WidgetCtl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "widgetctl",
        abstract: "Talk to widgetd: place widgets, inspect timelines and schedules, move the virtual clock.",
        discussion: """
            Exit status: 0 ok, 1 the daemon answered with an error (a refusal too: -32013 permission denied), \
            2 usage error, 3 cannot reach the daemon.
            """,
        subcommands: [
            PingCommand.self, StatusCommand.self, WidgetsCommand.self, AddCommand.self, RemoveCommand.self,
            ConfigureCommand.self, ListCommand.self, TimelineCommand.self, PushCommand.self, ReloadCommand.self,
            ScheduleCommand.self, BudgetCommand.self, ClockCommand.self, PreviewCommand.self, PlaceholderCommand.self,
            OptionsCommand.self, StackCommand.self, DonateCommand.self, DonationsCommand.self, LogCommand.self,
            ExplainCommand.self, WatchCommand.self, VisibleCommand.self, BatchCommand.self, RelevanceCommand.self, PerformCommand.self,
            SimulateCommand.self, ContextCommand.self,
        ])

    public init() {}

    /// Parses and runs, mapping every outcome to the exit status docs/widgetctl.md gives.
    public static func runMain(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        do {
            if let refusal = ClockCommand.Advance.signedDuration(in: arguments) { throw refusal }
            var command = try parseAsRoot(hoistingGlobalOptions(arguments))
            try command.run()
            return 0
        } catch let failure as CtlFailure {
            Terminal.printError("widgetctl: \(failure.message)")
            return failure.status
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                return 0
            }
            FileHandle.standardError.write(Data("\(message)\n".utf8))
            return 2
        }
    }
}

/// `--socket` and `--json` are global (docs/widgetctl.md), so they may come before the command
/// (`widgetctl --json list`); each command declares them, so move them after it.
func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < arguments.count, arguments[index].hasPrefix("--") {
        let argument = arguments[index]
        if argument == "--socket", index + 1 < arguments.count {
            leading += [argument, arguments[index + 1]]
            index += 2
        } else if argument == "--json" || argument.hasPrefix("--socket=") {
            leading.append(argument)
            index += 1
        } else {
            break
        }
    }
    guard !leading.isEmpty, index < arguments.count else { return arguments }
    var rest = Array(arguments[index...])
    // `--` ends options: globals must go before it.
    let end = rest.firstIndex(of: "--") ?? rest.endIndex
    rest.insert(contentsOf: leading, at: end)
    return rest
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Control socket (default: $WIDGETD_SOCKET, else your own daemon's socket when there is one, else /run/widgetd/widgetd.sock).")
    var socket: String?

    @Flag(help: "Machine output on stdout: one JSON document (watch: one JSON line per event).")
    var json = false

    func connect() throws(CtlFailure) -> WidgetdConnection {
        do {
            return try WidgetdConnection(path: socket)
        } catch {
            throw CtlFailure(error)
        }
    }
}

/// An outcome with its exit status: 1 daemon error (a permission refusal included: the exit
/// statuses are part of the public interface), 2 usage, 3 unreachable.
struct CtlFailure: Error {
    var status: Int32
    var message: String

    init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    init(_ error: WidgetdClientError) {
        switch error {
        case .cannotConnect, .permissionDenied, .connectionLost: self.init(status: 3, message: error.description)
        // The daemon's message may quote a name any client chose: it stays one line.
        case .daemon, .badResponse: self.init(status: 1, message: Terminal.text(error.description))
        }
    }

    static func usage(_ message: String) -> CtlFailure { CtlFailure(status: 2, message: message) }
}
