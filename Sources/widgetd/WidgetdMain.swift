import LoopExecutor
import WidgetDaemon

/// The daemon's entry point; everything else lives in WidgetDaemon.
@main
enum WidgetdMain {
    static func main() async {
        // First, before any other thread allocates (see MallocArenas).
        MallocArenas.apply()
        // Then, before any task runs: every task goes to the daemon's one event loop.
        LoopExecutor.install()
        await WidgetdCommand.main(nil)
    }
}
