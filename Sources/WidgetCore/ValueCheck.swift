import Foundation

/// Whether one value fits one parameter: type, range, enum case, fixed count, known entity.
enum ValueCheck {
    /// nil when the value fits; otherwise what is wrong, for a message.
    /// `family` nil skips the per-family count; `entityIDs` nil skips the entity check.
    static func problem(_ value: JSONValue, for parameter: IntentParameter, family: WidgetFamily?, entityIDs: Set<String>?) -> String? {
        if parameter.multiple {
            guard case .array(let items) = value else { return "expected an array of \(describe(parameter.type)) values" }
            if let family, let count = parameter.count?[family], items.count != count {
                return "expected exactly \(count) values for \(family.rawValue), got \(items.count)"
            }
            for (index, item) in items.enumerated() {
                if let reason = single(item, parameter, entityIDs) { return "[\(index)]: \(reason)" }
            }
            return nil
        }
        return single(value, parameter, entityIDs)
    }

    private static func single(_ value: JSONValue, _ parameter: IntentParameter, _ entityIDs: Set<String>?) -> String? {
        switch parameter.type {
        case .string:
            guard case .string = value else { return "expected a string, got \(value.compactText)" }
        case .boolean:
            guard case .bool = value else { return "expected true or false, got \(value.compactText)" }
        case .integer:
            guard let number = value.number, number.rounded() == number, abs(number) < 9e15 else {
                return "expected an integer, got \(value.compactText)"
            }
            return range(number, parameter, value)
        case .decimal:
            guard let number = value.number else { return "expected a number, got \(value.compactText)" }
            return range(number, parameter, value)
        case .date:
            guard case .string(let text) = value, ISO8601.date(from: text) != nil else {
                return "expected an ISO 8601 date with a zone, got \(value.compactText)"
            }
        case .enum:
            let ids = parameter.cases?.map(\.id) ?? []
            guard case .string(let id) = value, ids.contains(id) else {
                return "unknown case \(value.compactText) (cases: \(ids.joined(separator: ", ")))"
            }
        case .entity:
            guard case .string(let id) = value else { return "expected an entity id string, got \(value.compactText)" }
            if let entityIDs, !entityIDs.contains(id) {
                return "'\(id)' is not offered by the provider (options: \(entityIDs.sorted().prefix(20).joined(separator: ", ")))"
            }
        }
        return nil
    }

    private static func range(_ number: Double, _ parameter: IntentParameter, _ value: JSONValue) -> String? {
        if let min = parameter.min, number < min { return "\(value.compactText) is below the minimum \(format(min))" }
        if let max = parameter.max, number > max { return "\(value.compactText) is above the maximum \(format(max))" }
        return nil
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
    }

    private static func describe(_ type: ParameterType) -> String { type.rawValue }
}
