import WidgetDaemon

/// The daemon's entry point; everything else lives in WidgetDaemon.
@main
enum WidgetdMain {
    static func main() async {
        // First, before any other thread allocates (see MallocArenas).
        MallocArenas.apply()
        await WidgetdCommand.main(nil)
    }
}
