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
            out.value(.object(configuration))
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
            out.value(.object(configuration))
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
}
