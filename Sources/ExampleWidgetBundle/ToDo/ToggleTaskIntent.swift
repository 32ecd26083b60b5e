import WidgetProviderKit

/// The `ToggleTask` action of todo.json: marks one task of the instance done or not done.
///
/// It sets the state the button showed the way to, instead of flipping whatever is stored: a
/// button tapped twice before the new entry lands then leaves the task as the user meant.
struct ToggleTaskIntent: WidgetActionIntent {
    static let intentType = "ToggleTask"

    var task: String
    var done: Bool

    func perform(in context: TimelineProviderContext) async throws -> IntentResult {
        guard let task = ToDoList.task(task) else { throw ToDoError.unknownTask(task) }
        let store = try ToDoStore(instance: context.instance)
        try store.update { ticked in
            if done { ticked.insert(task.id) } else { ticked.remove(task.id) }
        }
        return .result(dialog: done ? "Done: \(task.title)" : "Not done: \(task.title)")
    }
}
