import CSystemd
import Foundation
import LoopExecutor
import Logging
import ServiceLifecycle
import WidgetCore
import WidgetDescriptorFiles
import WidgetStore

public struct DaemonOptions: Sendable {
    public var socketPath: String
    public var stateDirectory: String
    public var widgetsDirectories: [String]
    public var configPath: String?
    public var virtualStart: Date?
    public var budgetDisabled: Bool
    /// Watch the widgets directories (off: changes are read on `widgets.reload` or SIGHUP only).
    public var watchWidgets = true
    /// A user's own service (`--user-service`): the last widgets directory is the user's,
    /// made when missing, and only this uid and root may connect.
    public var userService = false
    /// The bus `WidgetCenter1` is served on (`--dbus`); nil: none.
    public var dbus: DBusBusKind?
    /// Read the session's context from the system bus (`--context-bus system`, the default;
    /// `DBUS_SYSTEM_BUS_ADDRESS` points it elsewhere); false: `--context-bus off`.
    public var contextBus = true
}
