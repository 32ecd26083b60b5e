import LoopExecutor
import NIOCore
import WidgetWeb

/// The web host's entry point; routes, page and the daemon bridge live in WidgetWeb.
@main
enum WidgetdWebMain {
    static func main() async {
        // Before any task runs: tasks go to NIO's loops, not to libdispatch's pool, whose
        // monitor would wake the host every second at rest.
        LoopExecutor.install(loops: System.coreCount)
        await WebHostCommand.main()
    }
}
