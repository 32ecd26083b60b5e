import Foundation
import WidgetProviderKit

/// The tutorial's `DynamicIntentWidgetProvider` and the options half of its `IntentHandler`.
struct ShortcutsProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> ShortcutsEntry {
        ShortcutsEntry(date: context.date, buttons: ShortcutButton.defaults)
    }

    func getSnapshot(
        for configuration: SelectButtonsIntent, in context: Context, completion: @escaping (ShortcutsEntry) -> Void
    ) {
        completion(ShortcutsEntry(date: context.date, buttons: buttons(configuration)))
    }

    func getTimeline(
        for configuration: SelectButtonsIntent, in context: Context,
        completion: @escaping (Timeline<ShortcutsEntry>) -> Void
    ) {
        let entry = ShortcutsEntry(date: context.date, buttons: buttons(configuration))
        // Refresh every two hours, as the tutorial does.
        let expireDate = Calendar.current.date(byAdding: .hour, value: 2, to: context.date) ?? context.date
        completion(Timeline(entries: [entry], policy: .after(expireDate)))
    }

    /// The chosen buttons in the user's order. Ids no longer offered are skipped, like an
    /// `INObject` the app has since removed; no choice at all means the defaults.
    private func buttons(_ configuration: SelectButtonsIntent) -> [ShortcutButton] {
        guard let ids = configuration.buttons else { return ShortcutButton.defaults }
        return ids.compactMap(ShortcutButton.init(rawValue:))
    }
}

extension ShortcutsProvider: DynamicOptionsProvider {
    /// The tutorial's `provideSelectButtonsOptionsCollection(for:searchTerm:with:)`.
    func options(for parameter: String, matching search: String?, in context: Context) async throws -> [IntentOption] {
        guard parameter == "buttons" else {
            throw WidgetProviderError.noDynamicOptions(kind: context.kind, parameter: parameter)
        }
        return ShortcutButton.allCases.map { IntentOption(id: $0.rawValue, display: $0.title) }.matching(search)
    }
}
