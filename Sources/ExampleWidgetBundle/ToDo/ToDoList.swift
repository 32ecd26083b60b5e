/// The lists the to-do example offers (the `list` parameter of todo.json), each with its
/// tasks. A task's id is unique across lists, so the ticks an instance keeps stay apart when
/// its list changes.
enum ToDoList: String, CaseIterable, Decodable, Sendable {
    case home, work, groceries

    struct Item: Sendable {
        let id: String
        let title: String
    }

    var title: String {
        switch self {
        case .home: "Home"
        case .work: "Work"
        case .groceries: "Groceries"
        }
    }

    var tasks: [Item] {
        switch self {
        case .home: [
            Item(id: "plants", title: "Water the plants"), Item(id: "bins", title: "Take out the bins"),
            Item(id: "dentist", title: "Call the dentist"), Item(id: "bike", title: "Fix the bike light"),
            Item(id: "backup", title: "Back up the laptop"), Item(id: "letter", title: "Post the letter"),
        ]
        case .work: [
            Item(id: "review", title: "Answer the code review"), Item(id: "slides", title: "Draft the slides"),
            Item(id: "expenses", title: "File the expenses"), Item(id: "standup", title: "Write the stand-up notes"),
            Item(id: "invite", title: "Send the meeting invite"),
        ]
        case .groceries: [
            Item(id: "milk", title: "Milk"), Item(id: "eggs", title: "Eggs"), Item(id: "bread", title: "Bread"),
            Item(id: "apples", title: "Apples"), Item(id: "coffee", title: "Coffee"), Item(id: "rice", title: "Rice"),
            Item(id: "lemons", title: "Lemons"),
        ]
        }
    }

    /// A task of any list by its id.
    static func task(_ id: String) -> Item? {
        allCases.lazy.flatMap(\.tasks).first { $0.id == id }
    }
}

/// The `SelectList` intent of todo.json.
struct SelectListIntent: Decodable, Sendable {
    var list: ToDoList?
}
