/// The programs the package installs as links to this one executable, told apart by the name
/// they were started under (the last component of `argv[0]`), as busybox does. The file itself
/// is installed as `widgetd`, so any other name is the daemon too.
enum InstalledProgram {
    case daemon
    case webHost
    case client
    case exampleWidgets

    init(invokedAs argument0: String) {
        switch argument0.split(separator: "/").last.map(String.init) ?? "" {
        case "widgetd-web": self = .webHost
        case "widgetctl": self = .client
        case "widgetd-example-widgets": self = .exampleWidgets
        default: self = .daemon
        }
    }
}
