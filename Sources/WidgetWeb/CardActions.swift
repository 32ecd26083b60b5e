import WidgetCore

/// What a card offers and how it looks between a tap and the new timeline, read from the wire
/// form of `list` (its `invalidated` and the current entry's `actions`), so the host follows
/// the documented JSON rather than one Swift shape of it.
struct CardActions: Sendable {
    /// One button: `id` goes to `perform`, `title` is what the button says.
    struct Button: Encodable, Sendable {
        var id: String
        var title: String
    }

    var buttons: [Button] = []
    /// True from a `perform` until the instance's next timeline is installed or its reload failed.
    var invalidated = false

    /// Each listed instance's buttons and state, by id.
    static func read(_ list: [JSONValue]) -> [String: CardActions] {
        var result: [String: CardActions] = [:]
        for item in list {
            guard let fields = item.objectValue, let id = fields["id"]?.stringValue else { continue }
            var actions: [JSONValue] = []
            if case .array(let items) = fields["currentEntry"]?.objectValue?["actions"] { actions = items }
            let buttons: [Button] = actions.compactMap { action in
                guard let action = action.objectValue, let id = action["id"]?.stringValue else { return nil }
                return Button(id: id, title: action["title"]?.stringValue ?? id)
            }
            result[id] = CardActions(buttons: buttons, invalidated: fields["invalidated"] == .bool(true))
        }
        return result
    }
}
