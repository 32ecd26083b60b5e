import WidgetProviderKit

/// One provider executable, `widgetd-example-widgets`, serving five kinds: the descriptors in
/// etc/widgetd/widgets.d all name it, as a WidgetKit extension's `WidgetBundle` does. A library
/// rather than the executable itself, so the package's one program can link it too.
public struct ExampleWidgets: WidgetProviderBundle {
    public init() {}

    public var body: [any WidgetConfiguration] {
        IntentConfiguration(
            kind: "com.example.random-number", intent: RandomNumberIntent.self, provider: RandomNumberProvider())
        IntentConfiguration(
            kind: "com.example.emoji-rangers", intent: SelectCharacterIntent.self, provider: EmojiRangersProvider())
        IntentConfiguration(
            kind: "com.example.shortcuts", intent: SelectButtonsIntent.self, provider: ShortcutsProvider())
        IntentConfiguration(
            kind: "com.example.todo", intent: SelectListIntent.self, provider: ToDoProvider(),
            actions: [ToggleTaskIntent.self])
        RelevanceConfiguration(kind: "com.example.up-next", provider: UpNextProvider())
    }
}
