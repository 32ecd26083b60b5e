import Foundation
import WidgetCtlCommands

/// The client's entry point; the commands live in WidgetCtlCommands.
@main
enum WidgetctlMain {
    static func main() {
        exit(WidgetCtl.runMain())
    }
}
