import Foundation
import WidgetCore

/// A result that writes its own JSON, byte for byte what `WidgetJSON.encoder` writes
/// (sorted keys, slashes unescaped), without Foundation's `JSONEncoder`.
///
/// Why: the answers to `reloadTimelines` and `donate`, the requests apps send most, are a
/// list of instance ids. Through `JSONEncoder` they cost about 18% of the daemon's CPU per
/// reload request (generic metadata lookups, boxing, a dictionary per level); written
/// directly they cost a copy of the ids.
public protocol DirectJSONEncodable: Encodable {
    func writeJSON(to out: inout JSONText)
}

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

extension RPCSuccess where Result: DirectJSONEncodable {
    /// The answer line (without its newline), as `WidgetJSON.encoder` would write it.
    public func directJSON() -> Data {
        var out = JSONText()
        out.raw(#"{"id":"#)
        switch id {
        case .number(let number)?: out.integer(number)
        case .string(let text)?: out.string(text)
        case nil: out.raw("null")
        }
        out.raw(#","jsonrpc":"2.0","result":"#)
        result.writeJSON(to: &out)
        out.raw("}")
        return Data(out.bytes)
    }
}

extension ReloadResult: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        out.raw(#"{"instances":"#)
        out.strings(instances)
        out.raw("}")
    }
}

extension DonateResult: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        out.raw(#"{"matched":"#)
        out.strings(matched)
        out.raw("}")
    }
}

extension JSONText {
    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// A date as `WidgetJSON.encoder` writes it: an ISO 8601 string.
    public mutating func date(_ date: Date) {
        string(ISO8601.string(from: date))
    }
}

extension PingResult: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        out.raw(#"{"daemon":"#)
        out.string(daemon)
        out.raw(#","protocol":"#)
        out.integer(Int64(self.protocol))
        out.raw("}")
    }
}

extension VisibleResult: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        out.raw(#"{"visible":"#)
        out.strings(visible)
        out.raw("}")
    }
}

extension PushResult: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        out.raw(#"{"entries":"#)
        out.integer(Int64(entries))
        out.raw(#","instance":"#)
        out.string(instance)
        if let nextReload {
            out.raw(#","nextReload":"#)
            out.date(nextReload)
        }
        out.raw("}")
    }
}

extension StackInfo: DirectJSONEncodable {
    public func writeJSON(to out: inout JSONText) {
        // Keys in sorted order, absent optionals left out, as JSONEncoder writes them.
        out.raw("{")
        if let holdUntil {
            out.raw(#""holdUntil":"#)
            out.date(holdUntil)
            out.raw(",")
        }
        out.raw(#""instances":"#)
        out.strings(instances)
        out.raw(#","name":"#)
        out.string(name)
        out.raw(#","smartRotate":"#)
        out.bool(smartRotate)
        if let top {
            out.raw(#","top":"#)
            out.string(top)
        }
        if let topSince {
            out.raw(#","topSince":"#)
            out.date(topSince)
        }
        if let userChoice {
            out.raw(#","userChoice":"#)
            out.string(userChoice)
        }
        out.raw("}")
    }
}
