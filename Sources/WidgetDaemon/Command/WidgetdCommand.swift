import ArgumentParser
import Foundation
import Logging
import WidgetCore

/// `widgetd`: the daemon's command line (docs/running.md, widgetd flags).
public struct WidgetdCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "widgetd",
        abstract: "Widget timeline scheduler: holds timelines, schedules reloads, serves the control socket.")

    @Option(help: "Control socket to bind (ignored when systemd passes one).")
    var socket: String?

    @Option(name: .customLong("state-dir"), help: "Folder of the SQLite state.")
    var stateDirectory: String?

    @Option(name: .customLong("widgets-dir"), help: "Descriptor folder; repeatable. Default /etc/widgetd/widgets.d.")
    var widgetsDirectories: [String] = []

    @Flag(
        name: .customLong("user-service"),
        help: ArgumentParser.ArgumentHelp(
            "Serve one user (a systemd --user unit): state in $XDG_STATE_HOME/widgetd, the socket in $XDG_RUNTIME_DIR/widgetd, "
                + "descriptors also from $XDG_CONFIG_HOME/widgetd/widgets.d; only this user and root may connect."))
    var userService = false

    @Option(help: "Settings file. Default /etc/widgetd/widgetd.conf when present, else embedded defaults.")
    var config: String?

    @Option(help: "'real', or 'virtual:ISO8601' to run on a virtual clock starting at that instant.")
    var clock: String = "real"

    @Flag(name: .customLong("no-budget"), help: "Debug: every reload exempt from the budget.")
    var noBudget = false

    @Flag(
        name: .customLong("no-widgets-watch"),
        help: "Do not watch the widgets directories: descriptor changes are read on 'widgetctl widgets reload' or SIGHUP only.")
    var noWidgetsWatch = false

    @Option(
        name: .customLong("dbus"),
        help: "Serve WidgetCenter1 on the 'system' or 'session' bus, or 'off' (docs/dbus.md).")
    var dbus: String = "off"

    @Option(
        name: .customLong("context-bus"),
        help: "Read the session's context (logind, UPower, power profiles, BlueZ, GeoClue2) from the 'system' bus (DBUS_SYSTEM_BUS_ADDRESS to point elsewhere), or 'off' (docs/context.md).")
    var contextBus: String = "system"

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(name: .customLong("log-target"), help: "auto (journal when stderr is the journal), journal or stderr.")
    var logTarget: String = "auto"

    public init() {}

    public func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        guard LogTarget(rawValue: logTarget) != nil else { throw ValidationError("unknown --log-target '\(logTarget)'") }
        _ = try parsedClock()
        guard dbus == "off" || DBusBusKind(rawValue: dbus) != nil else { throw ValidationError("--dbus must be 'system', 'session' or 'off'") }
        guard ["system", "off"].contains(contextBus) else { throw ValidationError("--context-bus must be 'system' or 'off'") }
    }

    func parsedClock() throws -> Date? {
        if clock == "real" { return nil }
        guard clock.hasPrefix("virtual:"), let start = ISO8601.date(from: String(clock.dropFirst("virtual:".count))) else {
            throw ValidationError("--clock must be 'real' or 'virtual:' followed by an ISO 8601 date with a zone")
        }
        guard SupportedDates.contains(start) else {
            throw ValidationError("--clock virtual: the date must be within \(SupportedDates.text)")
        }
        return start
    }

    public func run() async throws {
        LogTarget(rawValue: logTarget)!.bootstrap(level: Logger.Level(rawValue: logLevel)!)
        let system = widgetsDirectories.isEmpty ? ["/etc/widgetd/widgets.d"] : widgetsDirectories
        var options = DaemonOptions(
            socketPath: socket ?? DefaultPaths.socket(userService: userService),
            stateDirectory: stateDirectory ?? DefaultPaths.stateDirectory(userService: userService),
            widgetsDirectories: system + (userService ? [DefaultPaths.userWidgetsDirectory()] : []),
            configPath: config, virtualStart: try parsedClock(), budgetDisabled: noBudget, watchWidgets: !noWidgetsWatch)
        options.userService = userService
        options.dbus = DBusBusKind(rawValue: dbus)
        options.contextBus = contextBus == "system"
        do {
            try await Daemon(options: options).run()
        } catch {
            let status = StartupExitStatus.status(for: error)
            Logger(label: "widgetd").critical("widgetd cannot run: \(error)", metadata: ["exitStatus": "\(status)"])
            throw ExitCode(status)
        }
    }
}
