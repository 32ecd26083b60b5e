import Foundation
import WidgetCore

extension ProviderRequest {
    /// The request as a provider reads it, byte for byte what `WidgetJSON.encoder` writes
    /// (keys sorted, slashes unescaped, dates ISO 8601), without `JSONEncoder`: through it the
    /// request was the event loop's largest single cost per launch, and a launch's request
    /// grows with every instance it serves.
    func json() -> Data {
        var out = JSONText(capacity: 160 + 120 * instances.count)
        out.raw(#"{"configuration":"#)
        Self.write(configuration, to: &out)
        out.raw(#","family":"#)
        out.string(family.rawValue)
        out.raw(#","instance":"#)
        out.string(instance)
        out.raw(#","instances":["#)
        for (index, member) in instances.enumerated() {
            if index > 0 { out.raw(",") }
            out.raw(#"{"configuration":"#)
            Self.write(member.configuration, to: &out)
            out.raw(#","family":"#)
            out.string(member.family.rawValue)
            out.raw(#","instance":"#)
            out.string(member.instance)
            out.raw(#","kind":"#)
            out.string(member.kind)
            out.raw("}")
        }
        out.raw(#"],"kind":"#)
        out.string(kind)
        out.raw(#","now":"#)
        out.date(now)
        out.raw(#","verb":"#)
        out.string(verb)
        out.raw("}")
        return Data(out.bytes)
    }

    /// A configuration as `JSONEncoder` writes it: numbers as it prints a `Double` (`2`, not
    /// `2.0`), an object's keys sorted as `String`s.
    private static func write(_ object: [String: JSONValue], to out: inout JSONText) {
        write(.object(object), to: &out)
    }

    private static func write(_ value: JSONValue, to out: inout JSONText) {
        switch value {
        case .null: out.raw("null")
        case .bool(let flag): out.bool(flag)
        case .integer(let number): out.integer(number)
        case .number(let number): out.double(number)
        case .string(let text): out.string(text)
        case .array(let items):
            out.raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.raw(",") }
                write(item, to: &out)
            }
            out.raw("]")
        case .object(let members):
            out.raw("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.raw(",") }
                out.string(key)
                out.raw(":")
                write(members[key]!, to: &out)
            }
            out.raw("}")
        }
    }
}
