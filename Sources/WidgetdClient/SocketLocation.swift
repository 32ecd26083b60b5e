import Foundation

/// Where the control socket lives when nobody says (docs/widgetctl.md): `WIDGETD_SOCKET`, else
/// `/run/widgetd/widgetd.sock` for root, else `$XDG_RUNTIME_DIR/widgetd/widgetd.sock`.
public enum SocketLocation {
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["WIDGETD_SOCKET"], !explicit.isEmpty { return explicit }
        if geteuid() == 0 { return "/run/widgetd/widgetd.sock" }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/widgetd/widgetd.sock" }
        return "/tmp/widgetd-\(geteuid())/widgetd.sock"
    }
}
