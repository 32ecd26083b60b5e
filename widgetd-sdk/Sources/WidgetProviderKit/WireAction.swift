import WidgetWire

/// An entry's action as widgetd reads it: `{"id", "title", "intent": {"type", "parameters"}}`,
/// the parameters being the intent struct encoded as an object.
struct WireAction: Encodable, Sendable {
    struct Intent: Encodable, Sendable {
        let type: String
        let parameters: JSONValue
    }

    let id: String
    let title: String
    let intent: Intent

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
        id = action.id
        title = action.title
        intent = Intent(type: type, parameters: parameters)
    }
}
