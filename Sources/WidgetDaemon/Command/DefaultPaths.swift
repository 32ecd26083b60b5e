import Foundation
import WidgetdClient

/// Where the daemon keeps its state, its socket and a user's descriptors when no flag says
/// (docs/running.md).
enum DefaultPaths {
    /// A user service keeps the user's state even when that user is root: a `systemd --user`
    /// manager hands it `$XDG_STATE_HOME`.
    static func stateDirectory(
        userService: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if geteuid() == 0, !userService { return "/var/lib/widgetd" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/widgetd" }
        return home(environment) + "/.local/state/widgetd"
    }

    static func socket(
        userService: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if userService, environment["WIDGETD_SOCKET"]?.isEmpty ?? true,
           let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/widgetd/widgetd.sock"
        }
        return SocketLocation.defaultPath(environment: environment)
    }

    /// The user's own descriptors: `$XDG_CONFIG_HOME/widgetd/widgets.d`, else
    /// `~/.config/widgetd/widgets.d`.
    static func userWidgetsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/widgetd/widgets.d" }
        return home(environment) + "/.config/widgetd/widgets.d"
    }

    private static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }
}
