import ExampleWidgetBundle

/// The example provider bundle's entry point; its kinds live in ExampleWidgetBundle.
@main
enum ExampleWidgetsMain {
    static func main() async {
        await ExampleWidgets.main()
    }
}
