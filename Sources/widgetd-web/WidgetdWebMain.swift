import WidgetWeb

/// The web host's entry point; routes, page and the daemon bridge live in WidgetWeb.
@main
enum WidgetdWebMain {
    static func main() async {
        await WebHostCommand.main()
    }
}
