import Foundation
import WidgetCore

/// A result that writes its own JSON, byte for byte what `WidgetJSON.encoder` writes
/// (sorted keys, slashes unescaped), without Foundation's `JSONEncoder`.
///
/// Why: the answers to `reloadTimelines` and `donate`, the requests apps send most, are a
/// list of instance ids. Through `JSONEncoder` they cost a large share of a reload request's
/// CPU (generic metadata lookups, boxing, a dictionary per level; Benchmarks/FINDINGS.md has
/// the profile); written directly they cost a copy of the ids.
public protocol DirectJSONEncodable: Encodable {
    func writeJSON(to out: inout JSONText)
}

extension DirectJSONEncodable {
    /// The whole success answer line with this result (without its newline), as
    /// `WidgetJSON.encoder` writes `RPCSuccess(id: id, result: self)`: the one envelope the
    /// daemon writes for these results.
    public func successLine(id: RPCID?) -> [UInt8] {
        var out = JSONText()
        out.raw(#"{"id":"#)
        switch id {
        case .number(let number)?: out.integer(number)
        case .string(let text)?: out.string(text)
        case nil: out.raw("null")
        }
        out.raw(#","jsonrpc":"2.0","result":"#)
        writeJSON(to: &out)
        out.raw("}")
        return out.bytes
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
        StackState.writeJSON(
            to: &out, holdUntil: holdUntil, instances: instances, lastHeld: nil, name: name, rotations: nil,
            smartRotate: smartRotate, top: top, topSince: topSince, userChoice: userChoice, invalidated: invalidated)
    }
}
