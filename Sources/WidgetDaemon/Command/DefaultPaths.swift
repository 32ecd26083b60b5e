import Foundation
import WidgetdClient

/// Where the daemon keeps its state when `--state-dir` is not given (docs/running.md).
enum DefaultPaths {
    static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if geteuid() == 0 { return "/var/lib/widgetd" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/widgetd" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/widgetd"
    }

    static func socket() -> String { SocketLocation.defaultPath() }
}
