import Foundation

/// JSON text being written, as UTF-8 bytes.
public struct JSONText {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    /// Text that is already JSON (punctuation, keys known to need no escaping).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Bytes that are already JSON text (a value an encoder wrote).
    public mutating func raw(json: Data) {
        bytes.append(contentsOf: json)
    }

    /// A JSON string: quotes, backslashes and control characters escaped as JSONEncoder does.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x08: raw(#"\b"#)
            case 0x09: raw(#"\t"#)
            case 0x0A: raw(#"\n"#)
            case 0x0C: raw(#"\f"#)
            case 0x0D: raw(#"\r"#)
            case 0..<0x20:
                raw(#"\u00"#)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func strings(_ texts: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(text)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private static let hex = Array("0123456789abcdef".utf8)
}

extension JSONText {
    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// A finite number as `WidgetJSON.encoder` writes a `Double`: its `description`, without
    /// a trailing `.0` (`2`, `0.5`, `1e-07`).
    public mutating func double(_ value: Double) {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A date as `WidgetJSON.encoder` writes it: an ISO 8601 string.
    public mutating func date(_ date: Date) {
        string(ISO8601.string(from: date))
    }

    /// Text that is already JSON, written by one of these writers.
    public mutating func json(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}

extension JSONText {
    /// Any JSON value as `WidgetJSON.encoder` writes it: objects with their keys sorted as
    /// `String`s, numbers as it prints a `Double` (`2`, not `2.0`; both read back as the same
    /// value).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .integer(let number): integer(number)
        case .number(let number): double(number)
        case .string(let text): string(text)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(key)
                bytes.append(UInt8(ascii: ":"))
                self.value(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
