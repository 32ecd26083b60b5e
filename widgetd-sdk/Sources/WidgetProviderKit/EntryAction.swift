import WidgetWire

/// A button an entry offers while it is shown (WidgetKit's `Button(intent:)`): a host shows
/// `title`, and a tap makes widgetd run the provider's `perform` verb with `intent`.
///
/// ```swift
/// EntryAction(id: "done-milk", title: "Done: Buy milk", intent: ToggleTaskIntent(task: "milk", done: true))
/// ```
///
/// `id` names the action in its entry (hosts send it to `perform`), so it is unique within the
/// entry; the intent's type must be one the kind's descriptor declares under `actions`.
public struct EntryAction: Encodable, Sendable {
    public let id: String
    public let title: String
    public let intent: any WidgetActionIntent

    public init(id: String, title: String, intent: some WidgetActionIntent) {
        self.id = id
        self.title = title
        self.intent = intent
    }

    /// The wire form, so that an entry may keep its actions in a stored property and still
    /// synthesise `Encodable` (`WireEntry` takes them out of the content).
    public func encode(to encoder: any Encoder) throws {
        try WireAction(self).encode(to: encoder)
    }
}
