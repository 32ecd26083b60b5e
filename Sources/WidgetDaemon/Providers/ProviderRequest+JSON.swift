import Foundation
import WidgetCore

extension ProviderRequest {
    /// The request as a provider reads it, byte for byte what `WidgetJSON.encoder` writes
    /// (keys sorted, slashes unescaped, dates ISO 8601), without `JSONEncoder`: through it the
    /// request was the event loop's largest single cost per launch, and a launch's request
    /// grows with every instance it serves.
    ///
    /// Written so for the fields of a `timeline` launch; a request with any other field set
    /// goes through the encoder.
    func json() -> Data {
        guard isPreview == nil, parameter == nil, search == nil, intent == nil else {
            return (try? WidgetJSON.encoder.encode(self)) ?? Data("{}".utf8)
        }
        var out = JSONText(capacity: 160 + 120 * (instances?.count ?? 0))
        out.raw("{")
        var first = true
        func key(_ name: StaticString) {
            out.raw(first ? "" : ",")
            first = false
            out.raw(name)
        }
        if let configuration {
            key(#""configuration":"#)
            Self.write(configuration, to: &out)
        }
        key(#""family":"#)
        out.string(family.rawValue)
        if let instance {
            key(#""instance":"#)
            out.string(instance)
        }
        if let instances {
            key(#""instances":["#)
            for (index, member) in instances.enumerated() {
                if index > 0 { out.raw(",") }
                Self.write(member, to: &out)
            }
            out.raw("]")
        }
        key(#""kind":"#)
        out.string(kind)
        key(#""now":"#)
        out.date(now)
        if let verb {
            key(#""verb":"#)
            out.string(verb)
        }
        out.raw("}")
        return Data(out.bytes)
    }

    private static func write(_ member: Member, to out: inout JSONText) {
        out.raw("{")
        if let configuration = member.configuration {
            out.raw(#""configuration":"#)
            write(configuration, to: &out)
            out.raw(",")
        }
        out.raw(#""family":"#)
        out.string(member.family.rawValue)
        if let instance = member.instance {
            out.raw(#","instance":"#)
            out.string(instance)
        }
        out.raw(#","kind":"#)
        out.string(member.kind)
        out.raw("}")
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
