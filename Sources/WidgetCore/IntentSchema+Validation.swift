import Foundation

/// A configuration that does not fit the schema: the parameter and what is wrong.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var parameter: String
    public var reason: String

    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String { "configuration.\(parameter): \(reason)" }
}

extension IntentSchema {
    /// The configuration a provider receives: `given` checked against the schema, defaults
    /// filled in, and parameters hidden by `showIf` dropped. A null value means "unset".
    /// Entity ids are checked separately (`checkEntities`), once the provider's options are
    /// known.
    public func effectiveConfiguration(
        _ given: [String: JSONValue], family: WidgetFamily
    ) throws(ConfigurationError) -> [String: JSONValue] {
        for name in given.keys.sorted() where parameter(name) == nil {
            let known = parameters.map(\.name).joined(separator: ", ")
            throw ConfigurationError(parameter: name, reason: "unknown parameter (parameters: \(known.isEmpty ? "none" : known))")
        }
        var values: [String: JSONValue] = [:]
        for parameter in parameters {
            if let value = given[parameter.name], value != .null {
                if let reason = ValueCheck.problem(value, for: parameter, family: family, entityIDs: nil) {
                    throw ConfigurationError(parameter: parameter.name, reason: reason)
                }
                values[parameter.name] = value
            } else if let value = parameter.default {
                // A default that does not fit this family's fixed count is not used.
                if ValueCheck.problem(value, for: parameter, family: family, entityIDs: nil) == nil {
                    values[parameter.name] = value
                }
            }
        }
        // Parents come before their children, so one pass settles visibility.
        var effective: [String: JSONValue] = [:]
        for parameter in parameters {
            guard let value = values[parameter.name] else { continue }
            if let showIf = parameter.showIf, effective[showIf.parameter] != showIf.equals { continue }
            effective[parameter.name] = value
        }
        for parameter in parameters where parameter.multiple && effective[parameter.name] == nil {
            if let count = parameter.count?[family], count > 0, isVisible(parameter, in: effective) {
                throw ConfigurationError(parameter: parameter.name, reason: "required: exactly \(count) values for \(family.rawValue)")
            }
        }
        return effective
    }

    /// A stored configuration brought up to date with this schema (after the descriptor
    /// changed): unknown parameters and values that no longer fit are dropped, defaults and
    /// `showIf` applied again. Never fails; entity ids are not checked.
    public func normalized(_ stored: [String: JSONValue], family: WidgetFamily) -> [String: JSONValue] {
        let kept = stored.filter { name, value in
            guard let parameter = parameter(name) else { return false }
            return ValueCheck.problem(value, for: parameter, family: family, entityIDs: nil) == nil
        }
        return (try? effectiveConfiguration(kept, family: family)) ?? kept
    }

    /// The entity parameters present in an effective configuration, whose ids must be checked
    /// against the provider's options.
    public func entityParameters(in effective: [String: JSONValue]) -> [String] {
        parameters.filter { $0.type == .entity && effective[$0.name] != nil }.map(\.name)
    }

    /// Checks each entity id against the options the provider offers for its parameter.
    public func checkEntities(
        _ effective: [String: JSONValue], family: WidgetFamily, options: [String: Set<String>]
    ) throws(ConfigurationError) {
        for name in entityParameters(in: effective) {
            guard let parameter = parameter(name), let value = effective[name] else { continue }
            if let reason = ValueCheck.problem(value, for: parameter, family: family, entityIDs: options[name] ?? []) {
                throw ConfigurationError(parameter: name, reason: reason)
            }
        }
    }

    private func isVisible(_ parameter: IntentParameter, in effective: [String: JSONValue]) -> Bool {
        guard let showIf = parameter.showIf else { return true }
        return effective[showIf.parameter] == showIf.equals
    }
}
