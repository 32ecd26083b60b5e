import WidgetCore

/// Opaque JSON (donation parameters, widget content) read without `JSONDecoder`.
extension JSONCursor {
    /// The value at the cursor as `JSONValue(from:)` decodes it through `JSONDecoder`.
    mutating func value() -> JSONValue? {
        skipSpace()
        switch peek {
        case UInt8(ascii: "{"): return objectValue().map(JSONValue.object)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            let ok = array { cursor in
                guard let element = cursor.value() else { return false }
                elements.append(element)
                return true
            }
            return ok ? .array(elements) : nil
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map(JSONValue.bool)
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return numberValue()
        }
    }

    /// An object of values (`[String: JSONValue]`). Duplicate keys, canonically equal ones
    /// too (`"é"` written precomposed and decomposed), give nil.
    mutating func objectValue() -> [String: JSONValue]? {
        var members: [String: JSONValue] = [:]
        let ok = object { cursor, key in
            guard let value = cursor.value() else { return false }
            return members.updateValue(value, forKey: String(decoding: key.bytes, as: UTF8.self)) == nil
        }
        return ok ? members : nil
    }

    /// Writes the value at the cursor as `WidgetJSON.encoder` writes the `JSONValue` that
    /// `JSONDecoder` reads from it (`WidgetEntry.contentJSON`): compact, object keys sorted
    /// by their UTF-8 bytes, strings with the encoder's escapes, numbers as `numberValue`
    /// reads them. False (the caller gives up) where `value()` would give nil.
    mutating func canonical(into out: inout [UInt8]) -> Bool {
        skipSpace()
        switch peek {
        case UInt8(ascii: "{"): return canonicalObject(into: &out)
        case UInt8(ascii: "["):
            out.append(UInt8(ascii: "["))
            var first = true
            let ok = array { cursor in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                return cursor.canonical(into: &out)
            }
            out.append(UInt8(ascii: "]"))
            return ok
        case UInt8(ascii: "\""):
            guard let range = stringContent(allowEscapes: true) else { return false }
            appendCanonicalString(range, to: &out)
            return true
        case UInt8(ascii: "t"): return appendLiteral("true", to: &out)
        case UInt8(ascii: "f"): return appendLiteral("false", to: &out)
        case UInt8(ascii: "n"): return appendLiteral("null", to: &out)
        default:
            guard let number = numberValue() else { return false }
            number.appendNumberText(to: &out)
            return true
        }
    }

    private mutating func appendLiteral(_ word: StaticString, to out: inout [UInt8]) -> Bool {
        guard literal(word) else { return false }
        word.withUTF8Buffer { out.append(contentsOf: $0) }
        return true
    }

    /// The encoder writes every character back as the same two-character escape it was read
    /// from (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`) except the slash, which it leaves bare
    /// (`withoutEscapingSlashes`); other characters were never escaped here.
    private func appendCanonicalString(_ range: Range<Int>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "/") {
                out.append(UInt8(ascii: "/"))
                index += 2
            } else if byte == UInt8(ascii: "\\") {
                out.append(byte)
                out.append(bytes[index + 1])
                index += 2
            } else {
                out.append(byte)
                index += 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Members are written in the order they come, then reordered when that is not already
    /// sorted. Keys never hold escapes here (`object` refuses them), so their bytes are both
    /// what is written and what the encoder sorts by.
    private mutating func canonicalObject(into out: inout [UInt8]) -> Bool {
        let start = out.count
        out.append(UInt8(ascii: "{"))
        var members: [(key: UnsafeRawBufferPointer, text: Range<Int>)] = []
        let ok = object { cursor, key in
            if !members.isEmpty { out.append(UInt8(ascii: ",")) }
            let memberStart = out.count
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: key.bytes)
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
            guard cursor.canonical(into: &out) else { return false }
            members.append((key.bytes, memberStart..<out.count))
            return true
        }
        guard ok else { return false }
        out.append(UInt8(ascii: "}"))
        guard members.count > 1 else { return true }
        if members.contains(where: { $0.key.contains(where: { $0 >= 0x80 }) }) {
            // Swift's `String` equality, which a decoded dictionary uses, is canonical
            // equivalence: different bytes may still be the same key.
            let names = Set(members.map { String(decoding: $0.key, as: UTF8.self) })
            guard names.count == members.count else { return false }
        }
        let sorted = zip(members, members.dropFirst()).allSatisfy { $0.key.lexicographicallyPrecedes($1.key) }
        if sorted { return true }
        let order = members.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (lhs, rhs) in zip(order, order.dropFirst()) where lhs.key.elementsEqual(rhs.key) { return false }
        var rebuilt: [UInt8] = [UInt8(ascii: "{")]
        rebuilt.reserveCapacity(out.count - start)
        for (position, member) in order.enumerated() {
            if position > 0 { rebuilt.append(UInt8(ascii: ",")) }
            rebuilt.append(contentsOf: out[member.text])
        }
        rebuilt.append(UInt8(ascii: "}"))
        out.replaceSubrange(start..<out.count, with: rebuilt)
        return true
    }
}
