/// Which bus widgetd serves `WidgetCenter1` on (`--dbus`).
public enum DBusBusKind: String, Sendable, CaseIterable {
    /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else /run/dbus/system_bus_socket).
    case system
    /// The session bus (`DBUS_SESSION_BUS_ADDRESS`, else $XDG_RUNTIME_DIR/bus).
    case session
}
