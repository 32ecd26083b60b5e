import Foundation
import WidgetProviderKit

/// The tasks an instance shows, each with the button that flips it.
/// Content: `{"list": "Home", "remaining": 5, "total": 6, "tasks": [{"id": "plants",
/// "title": "Water the plants", "done": true}, ...]}`; actions: `done-plants` ("Done: Water
/// the plants") for an open task, `undo-plants` ("Undo: ...") for a ticked one.
struct ToDoEntry: TimelineEntry {
    struct Item: Encodable, Sendable {
        let id: String
        let title: String
        let done: Bool
    }

    let date: Date
    let list: String
    let remaining: Int
    let total: Int
    let tasks: [Item]
    let actions: [EntryAction]

    /// `buttons` false for entries that no instance shows (placeholder, gallery preview):
    /// there is nothing a tap could change.
    init(date: Date, list: ToDoList, ticked: Set<String>, family: WidgetFamily, buttons: Bool) {
        self.date = date
        self.list = list.title
        remaining = list.tasks.count(where: { !ticked.contains($0.id) })
        total = list.tasks.count
        tasks = list.tasks.prefix(Self.shown(in: family)).map { Item(id: $0.id, title: $0.title, done: ticked.contains($0.id)) }
        actions = buttons ? tasks.map { task in
            EntryAction(
                id: (task.done ? "undo-" : "done-") + task.id, title: (task.done ? "Undo: " : "Done: ") + task.title,
                intent: ToggleTaskIntent(task: task.id, done: !task.done))
        } : []
    }

    /// How many tasks fit the family.
    static func shown(in family: WidgetFamily) -> Int {
        switch family {
        case .systemSmall: 3
        case .systemMedium: 4
        default: 8
        }
    }
}
