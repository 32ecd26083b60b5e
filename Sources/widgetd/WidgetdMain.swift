import WidgetDaemon

/// The daemon's entry point; everything else lives in WidgetDaemon.
@main
enum WidgetdMain {
    static func main() async {
        await WidgetdCommand.main(nil)
    }
}
