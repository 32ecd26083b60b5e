import Foundation

/// The fast path of `RequestDecoder`: reads the envelope of an ordinary request line by hand and
/// remembers where its `params` object lies, so the line is parsed by `JSONDecoder` once (for
/// the typed params) instead of twice.
///
/// It accepts only what is plainly valid: ASCII, strings without `\u` escapes, an integer or
/// string id, no duplicate members, nesting at most 64 deep. Anything else, including every
/// line that deserves an error, answers nil and goes through the general decoder, so error
/// answers come from one place. `scripts/fuzz` checks that the two agree on every input the
/// fast path accepts.
struct RequestScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    static func scan(_ line: Data) -> IncomingRequest? {
        line.withUnsafeBytes { raw -> IncomingRequest? in
            var scanner = RequestScanner(bytes: raw.bindMemory(to: UInt8.self))
            guard let envelope = scanner.envelope() else { return nil }
            let offset = line.startIndex
            return IncomingRequest(
                id: envelope.id, hasID: envelope.hasID, method: envelope.method, line: line,
                hasParams: envelope.params != nil,
                paramsRange: envelope.params.map { (offset + $0.lowerBound)..<(offset + $0.upperBound) })
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private struct Envelope {
        var id: RPCID?
        var hasID = false
        var method: String
        var params: Range<Int>?
    }

    private static let maximumDepth = 64

    private mutating func envelope() -> Envelope? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var version: String?
        var method: String?
        var id: RPCID?
        var hasID = false
        var params: Range<Int>?
        var seenParams = false
        var otherKeys: [String] = []
        skipSpace()
        guard peek != UInt8(ascii: "}") else { return nil }
        while true {
            skipSpace()
            guard let key = plainString() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            switch key {
            case "jsonrpc":
                guard version == nil, let value = plainString() else { return nil }
                version = value
            case "method":
                guard method == nil, let value = plainString() else { return nil }
                method = value
            case "id":
                guard !hasID else { return nil }
                hasID = true
                if peek == UInt8(ascii: "\"") {
                    guard let text = plainString() else { return nil }
                    id = .string(text)
                } else if literal("null") {
                    id = nil
                } else {
                    guard let number = integer() else { return nil }
                    id = .number(number)
                }
            case "params":
                guard !seenParams else { return nil }
                seenParams = true
                if !literal("null") {
                    let start = index
                    guard peek == UInt8(ascii: "{"), skipValue(depth: 1) else { return nil }
                    params = start..<index
                }
            default:
                guard !otherKeys.contains(key), skipValue(depth: 1) else { return nil }
                otherKeys.append(key)
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            break
        }
        skipSpace()
        guard index == bytes.count, version == "2.0", let method else { return nil }
        return Envelope(id: id, hasID: hasID, method: method, params: params)
    }

    // MARK: Tokens

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string of printable ASCII with no escapes at all (keys, versions, methods, ids).
    private mutating func plainString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while let byte = peek, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        guard peek != nil else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
    }

    /// A JSON integer that fits in 18 digits (so it cannot overflow an `Int64`).
    private mutating func integer() -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var value: Int64 = 0
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))  // checked by the digit count below
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
        if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        return negative ? -value : value
    }

    // MARK: Skipping a value, validating it

    private mutating func skipValue(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, let byte = peek else { return false }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                guard skipString() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if take(UInt8(ascii: "]")) { return true }
            while true {
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "]"))
            }
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "t"):
            return literal("true")
        case UInt8(ascii: "f"):
            return literal("false")
        case UInt8(ascii: "n"):
            return literal("null")
        default:
            return skipNumber()
        }
    }

    /// A string of printable ASCII and the two-character escapes; `\u` is left to the general
    /// decoder, which knows what to do with lone surrogates.
    private mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                switch peek {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                default:
                    return false
                }
            case 0x20..<0x80:
                continue
            default:
                return false
            }
        }
        return false
    }

    /// The JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() -> Bool {
        _ = take(UInt8(ascii: "-"))
        guard let first = peek, isDigit(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if take(UInt8(ascii: ".")) {
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { index += 1 }
    }
}
