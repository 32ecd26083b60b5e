import Foundation
import WidgetWire

/// A configuration value as the typed getters of `ConfigurationValues` read it.
extension JSONValue {
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .number(let value): return Int(exactly: value)
        default: return nil
        }
    }

    var decimal: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var date: Date? { string.flatMap(ISO8601.date(from:)) }
}
