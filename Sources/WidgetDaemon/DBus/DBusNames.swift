/// The names widgetd's D-Bus interface is known by (docs/dbus.md).
enum DBusNames {
    /// The well-known bus name, which is also the interface's name.
    static let busName = "org.widgetd.WidgetCenter1"
    static let interface = "org.widgetd.WidgetCenter1"
    static let objectPath = "/org/widgetd/WidgetCenter1"
    /// Errors are this prefix followed by the JSON-RPC error's name (`DBusErrorName`).
    static let errorPrefix = "org.widgetd.WidgetCenter1.Error."
}
