import Foundation

/// A button an entry offers while it is shown: a host that taps it asks widgetd to `perform`
/// it, which runs the intent in the provider and reloads the instance (docs/widgets.md,
/// "Actions"). The intent's type must be one the kind declares under `actions`.
public struct WidgetAction: Codable, Sendable, Hashable {
    /// Names the action within its entry: what `perform` is given.
    public var id: String
    /// What the button says.
    public var title: String
    public var intent: ActionIntent

    public init(id: String, title: String, intent: ActionIntent) {
        self.id = id
        self.title = title
        self.intent = intent
    }

    private enum CodingKeys: String, CodingKey { case id, title, intent }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        intent = try container.decode(ActionIntent.self, forKey: .intent)
        guard !id.isEmpty, id.unicodeScalars.count <= 200 else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "id must be 1-200 characters")
        }
    }
}

/// The intent an action runs: a type the kind declares, with its parameter values.
public struct ActionIntent: Codable, Sendable, Hashable {
    public var type: String
    public var parameters: [String: JSONValue]

    public init(type: String, parameters: [String: JSONValue] = [:]) {
        self.type = type
        self.parameters = parameters
    }

    private enum CodingKeys: String, CodingKey { case type, parameters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        parameters = try container.decodeIfPresent([String: JSONValue].self, forKey: .parameters) ?? [:]
        guard !type.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "type must not be empty")
        }
    }
}

extension [WidgetAction] {
    /// The first id used twice, which would make `perform` ambiguous.
    var repeatedID: String? {
        var seen = Set<String>()
        return first { !seen.insert($0.id).inserted }?.id
    }

    /// The actions as stored in a timeline: compact JSON, keys sorted; empty for none.
    var storedText: String {
        isEmpty ? "" : (try? String(decoding: WidgetJSON.encoder.encode(self), as: UTF8.self)) ?? ""
    }

    /// Read back from `storedText` (or a store row); empty for empty text.
    init(storedText bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else {
            self = []
            return
        }
        self = (try? WidgetJSON.decoder.decode([WidgetAction].self, from: Data(bytes))) ?? []
    }
}

extension WidgetDescriptor {
    /// Why `action` cannot be offered by this kind's entries: its type is not declared, or its
    /// parameters break the type's rules. Entity ids are not checked (only the provider's
    /// `options` knows them).
    public func problem(with action: WidgetAction, family: WidgetFamily) -> String? {
        guard let type = actionType(action.intent.type) else {
            let declared = actions.map(\.type).joined(separator: ", ")
            return "intent.type '\(action.intent.type)' is not declared in the kind's actions (declared: \(declared.isEmpty ? "none" : declared))"
        }
        do {
            _ = try type.effectiveConfiguration(action.intent.parameters, family: family)
            return nil
        } catch {
            return "intent.parameters.\(error.parameter): \(error.reason)"
        }
    }
}
