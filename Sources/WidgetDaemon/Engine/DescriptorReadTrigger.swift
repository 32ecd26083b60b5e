import Foundation
import Logging
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol

/// What made the engine read the widgets directories again: it goes in the log line.
public enum DescriptorReadTrigger: String, Sendable {
    /// `WidgetsDirectoryWatcher` saw a descriptor file change.
    case watch
    /// `widgets.reload`.
    case request
    /// SIGHUP (`systemctl reload`), which reads the settings too.
    case signal
}
