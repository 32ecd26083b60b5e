import ArgumentParser
import WidgetCore
import WidgetProtocol

struct PingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ping", abstract: "Daemon and protocol versions.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let result = try global.call(Methods.Ping.self)
        global.emit(result) { Terminal.print("widgetd \(result.daemon), protocol \(result.protocol)") }
    }
}

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Version, counts, clock, next wake-up.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let status = try global.call(Methods.Status.self)
        global.emit(status) {
            Terminal.print(lines: """
                widgetd \(status.daemon) (protocol \(status.protocol))
                clock:            \(status.clock.mode) \(Show.date(status.clock.now))
                kinds:            \(status.kinds)\(status.descriptorProblems > 0 ? " (\(status.descriptorProblems) descriptor files skipped: see 'widgetctl widgets')" : "")
                instances:        \(status.instances) (\(status.timelines) with a timeline)\(status.failedInstances.map { ", \($0) failed: a stored row does not decode (see 'widgetctl list')" } ?? "")
                pending reloads:  \(status.pendingReloads)
                providers running: \(status.providersRunning)
                next wake-up:     \(Show.date(status.nextWakeup))
                budget:           \(status.budgetEnabled ? "on" : "off (--no-budget)")
                state:            \(status.stateDirectory)
                """)
            if let left = status.rowsLeftOut {
                print("rows left out:    \(left) stored rows do not decode (logged with their table, key and what to do)")
            }
        }
    }
}
