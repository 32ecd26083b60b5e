import Foundation
import WidgetProviderKit

/// A to-do list whose buttons tick tasks off (WidgetKit's interactive widgets, iOS 17). The
/// ticks live in the provider's own file (``ToDoStore``); after each `perform`, widgetd reloads
/// the instance and the timeline shows them.
struct ToDoProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> ToDoEntry {
        ToDoEntry(date: context.date, list: .home, ticked: [], family: context.family, buttons: false)
    }

    func snapshot(for configuration: SelectListIntent, in context: Context) async -> ToDoEntry {
        entry(configuration, context)
    }

    /// One entry and no reload of its own: the list changes only when a button is tapped, and
    /// widgetd reloads the instance after every `perform`.
    func timeline(for configuration: SelectListIntent, in context: Context) async -> Timeline<ToDoEntry> {
        Timeline(entries: [entry(configuration, context)], policy: .never)
    }

    /// A file that cannot be read shows every task open rather than failing the reload: the
    /// list stays usable, and the next `perform` reports the problem.
    private func entry(_ configuration: SelectListIntent, _ context: Context) -> ToDoEntry {
        let ticked = context.instance.flatMap { try? ToDoStore(instance: $0).ticked() } ?? []
        return ToDoEntry(
            date: context.date, list: configuration.list ?? .home, ticked: ticked, family: context.family,
            buttons: context.instance != nil)
    }
}
