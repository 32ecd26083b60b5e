import ExampleWidgetBundle
import Glibc
import LoopExecutor
import NIOCore
import WidgetCtlCommands
import WidgetDaemon
import WidgetWeb

/// The package's one executable: widgetd, widgetd-web, widgetctl and the example bundle are
/// links to it, so the Swift runtime and Foundation's data are on disk and in memory once.
/// Each case does what that program's own shim does (Sources/widgetd, widgetd-web, widgetctl,
/// widgetd-example-widgets).
@main
enum ProgramsMain {
    static func main() async {
        switch InstalledProgram(invokedAs: CommandLine.arguments.first ?? "") {
        case .daemon:
            MallocArenas.apply()
            LoopExecutor.install()
            await WidgetdCommand.main(nil)
        case .webHost:
            LoopExecutor.install(loops: System.coreCount)
            await WebHostCommand.main()
        case .client:
            exit(WidgetCtl.runMain())
        case .exampleWidgets:
            await ExampleWidgets.main()
        }
    }
}
