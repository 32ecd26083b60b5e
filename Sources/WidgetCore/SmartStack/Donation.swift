import Foundation

/// A record that the user looked at some information in an app (an intent donation).
public struct Donation: Sendable, Hashable, Codable {
    public var intentType: String
    public var parameters: [String: JSONValue]
    public var date: Date
    public var id: String?
    public var group: String?

    public init(intentType: String, parameters: [String: JSONValue], date: Date, id: String? = nil, group: String? = nil) {
        self.intentType = intentType
        self.parameters = parameters
        self.date = date
        self.id = id
        self.group = group
    }

    /// docs/smart-stacks.md, Donations: same intent type, and for at least one supported
    /// combination every parameter in it has the same value here and in the configuration.
    /// An empty combination matches nothing: it says nothing about the user's interest.
    public func matches(_ schema: IntentSchema, configuration: [String: JSONValue]) -> Bool {
        guard schema.type == intentType else { return false }
        return schema.supportedCombinations.contains { combination in
            !combination.isEmpty && combination.allSatisfy { name in
                guard let donated = parameters[name], let configured = configuration[name] else { return false }
                return donated == configured
            }
        }
    }
}

extension Donation {
    /// The donation as JSON, as `WidgetJSON.decoder` reads it back, written without
    /// `JSONEncoder` (every donation is stored, and the encoder was most of its cost).
    public var json: String {
        var out = JSONText(capacity: 128)
        out.raw(#"{"date":"#)
        out.date(date)
        if let group {
            out.raw(#","group":"#)
            out.string(group)
        }
        if let id {
            out.raw(#","id":"#)
            out.string(id)
        }
        out.raw(#","intentType":"#)
        out.string(intentType)
        out.raw(#","parameters":"#)
        out.value(.object(parameters))
        out.raw("}")
        return out.text
    }
}
