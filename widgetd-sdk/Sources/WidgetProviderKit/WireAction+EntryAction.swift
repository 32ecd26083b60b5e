import WidgetWire

extension WireAction {
    /// The action's intent encoded as an object, under its declared type.
    init(_ action: EntryAction) throws {
        guard !action.id.isEmpty else { throw WidgetProviderError.badEntry("action '\(action.title)': its id is empty") }
        let type = Swift.type(of: action.intent).intentType
        let parameters: JSONValue
        do {
            parameters = try WidgetJSON.decoder.decode(JSONValue.self, from: WidgetJSON.encoder.encode(action.intent))
        } catch {
            throw WidgetProviderError.badEntry("action '\(action.id)': intent \(type): \(error)")
        }
        guard case .object = parameters else {
            throw WidgetProviderError.badEntry("action '\(action.id)': intent \(type) does not encode as an object")
        }
        self.init(id: action.id, title: action.title, intent: Intent(type: type, parameters: parameters))
    }
}
