/// An entry's action as widgetd reads it: `{"id", "title", "intent": {"type", "parameters"}}`,
/// the parameters an object.
public struct WireAction: Encodable, Sendable, Hashable {
    public struct Intent: Encodable, Sendable, Hashable {
        public let type: String
        public let parameters: JSONValue

        public init(type: String, parameters: JSONValue) {
            self.type = type
            self.parameters = parameters
        }
    }

    public let id: String
    public let title: String
    public let intent: Intent

    public init(id: String, title: String, intent: Intent) {
        self.id = id
        self.title = title
        self.intent = intent
    }
}
