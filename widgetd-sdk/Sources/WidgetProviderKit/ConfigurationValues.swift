import Foundation
import WidgetWire

/// An instance's effective configuration: parameter name -> value, with typed accessors for
/// providers that do not declare an `Intent` struct.
///
/// Accessors return nil when the parameter is absent (hidden by `showIf`, or never declared)
/// or holds another type. `enum` and `entity` values are their id strings; `multiple`
/// parameters are read with the plural accessors (`strings`, `integers`, ...).
public struct ConfigurationValues: Sendable, Equatable {
    let values: [String: JSONValue]

    /// No values.
    public init() {
        values = [:]
    }

    init(_ values: [String: JSONValue]) {
        self.values = values
    }

    /// Reads a JSON object such as `{"maxNumber": 10, "useCustomRange": false}`, for unit tests.
    public init(json: Data) throws {
        guard case .object(let object) = try WidgetJSON.decoder.decode(JSONValue.self, from: json) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a configuration is a JSON object"))
        }
        values = object
    }

    /// The parameter names present, sorted.
    public var names: [String] { values.keys.sorted() }

    /// Whether the parameter has a value.
    public func contains(_ name: String) -> Bool { values[name] != nil }

    /// A `string`, `enum` or `entity` value; dates too, as their ISO 8601 text.
    public func string(_ name: String) -> String? { values[name]?.string }

    /// An `integer` value (a decimal with no fraction counts).
    public func integer(_ name: String) -> Int? { values[name]?.integer }

    /// A `decimal` value (an integer counts).
    public func decimal(_ name: String) -> Double? { values[name]?.decimal }

    /// A `boolean` value.
    public func bool(_ name: String) -> Bool? { values[name]?.bool }

    /// A `date` value, from its ISO 8601 text.
    public func date(_ name: String) -> Date? { values[name]?.date }

    /// Decodes the whole configuration, e.g. into an intent struct (dates from ISO 8601 text).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try WidgetJSON.decoder.decode(type, from: WidgetJSON.encoder.encode(JSONValue.object(values)))
    }
}
