/// A cursor over JSON text for the fast paths (`RequestScanner`, `ScannableParams`).
///
/// It accepts only what is plainly valid, a subset of what `JSONDecoder` accepts: well-formed
/// UTF-8, strings with the two-character escapes (`\u` is left to the general decoder, which
/// knows what to do with lone surrogates), the JSON number grammar, nesting at most
/// `maximumDepth` deep. Every reader answers nil or false for anything else, and the caller
/// then leaves the input to `JSONDecoder`, whose answer (or error) is the reference.
struct JSONCursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// Objects and arrays open around the cursor.
    private(set) var depth = 0

    /// `JSONDecoder` allows 512; requests nest far less, and a bound keeps recursion shallow.
    static let maximumDepth = 64

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var peek: UInt8? {
        @inline(__always) get { index < bytes.count ? bytes[index] : nil }
    }

    /// Only whitespace is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `null`, after optional whitespace.
    mutating func null() -> Bool {
        skipSpace()
        return literal("null")
    }

    mutating func bool() -> Bool? {
        skipSpace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// `read`'s value, `.some(nil)` for `null` (what `decodeIfPresent` gives), nil when neither.
    mutating func nullable<T>(_ read: (inout JSONCursor) -> T?) -> T?? {
        if null() { return .some(nil) }
        guard let value = read(&self) else { return nil }
        return .some(value)
    }

    // MARK: Containers

    /// Reads the object at the cursor, calling `member` with each key and the cursor at its
    /// value; `member` must read or skip the value. Keys with escapes are refused: one could
    /// spell a key the caller knows (`"kind\u0073"`).
    mutating func object(_ member: (inout JSONCursor, JSONKey) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "{")), enter() else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return leave() }
        while true {
            skipSpace()
            guard let key = stringContent(allowEscapes: false) else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard member(&self, JSONKey(bytes: UnsafeRawBufferPointer(rebasing: bytes[key]))) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) && leave()
        }
    }

    /// Reads the array at the cursor, calling `element` with the cursor at each element.
    mutating func array(_ element: (inout JSONCursor) -> Bool) -> Bool {
        skipSpace()
        guard take(UInt8(ascii: "[")), enter() else { return false }
        skipSpace()
        if take(UInt8(ascii: "]")) { return leave() }
        while true {
            skipSpace()
            guard element(&self) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) && leave()
        }
    }

    private mutating func enter() -> Bool {
        depth += 1
        return depth <= Self.maximumDepth
    }

    private mutating func leave() -> Bool {
        depth -= 1
        return true
    }

    /// An array of strings (`kinds`, `instances`).
    mutating func strings() -> [String]? {
        var result: [String] = []
        let ok = array { cursor in
            guard let text = cursor.string() else { return false }
            result.append(text)
            return true
        }
        return ok ? result : nil
    }

    /// Skips one value, checking it is plainly valid.
    mutating func skipValue() -> Bool {
        skipSpace()
        switch peek {
        case UInt8(ascii: "{"): return object { cursor, _ in cursor.skipValue() }
        case UInt8(ascii: "["): return array { cursor in cursor.skipValue() }
        case UInt8(ascii: "\""): return stringContent(allowEscapes: true) != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number() != nil
        }
    }

    // MARK: Strings

    /// A string as `JSONDecoder` decodes it.
    mutating func string() -> String? {
        skipSpace()
        guard let range = stringContent(allowEscapes: true) else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
        // Already checked to be UTF-8: nothing gets replaced.
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var escaped = false
        for byte in raw {
            if escaped {
                decoded.append(Self.unescaped(byte))
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                decoded.append(byte)
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The byte a two-character escape stands for (the escape already checked).
    static func unescaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: byte  // `"`, `\` and `/` stand for themselves
        }
    }

    /// Checks the string at the cursor and answers where its content (between the quotes)
    /// lies, escapes still in it.
    mutating func stringContent(allowEscapes: Bool) -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return start..<(index - 1)
            case UInt8(ascii: "\\"):
                guard allowEscapes, index + 1 < bytes.count else { return nil }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                default:
                    return nil
                }
            case 0x20..<0x80:
                index += 1
            default:
                guard let length = scalarLength(at: index) else { return nil }
                index += length
            }
        }
        return nil
    }

    /// The length of the well-formed multi-byte UTF-8 sequence at `at` (no overlong forms,
    /// no surrogates, nothing above U+10FFFF), or nil.
    private func scalarLength(at start: Int) -> Int? {
        let lead = bytes[start]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard bytes.count - start >= length else { return nil }
        guard (low...high).contains(bytes[start + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[start + offset]) { return nil }
        return length
    }
}

/// An object's key as it stands in the text (never with escapes), matched against the keys a
/// reader knows without making a `String`.
struct JSONKey {
    let bytes: UnsafeRawBufferPointer

    @inline(__always)
    static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard key.bytes.count == count else { return false }
        for offset in 0..<count where key.bytes[offset] != pattern.utf8Start[offset] { return false }
        return true
    }
}

/// Which known keys a reader has met: `JSONDecoder` keeps the first of duplicate keys, a
/// reader here gives up instead, so that nobody has to rely on that.
struct SeenKeys {
    private var bits: UInt32 = 0

    /// True the first time `key` (0...31) is met.
    mutating func first(_ key: Int) -> Bool {
        let bit: UInt32 = 1 << UInt32(key)
        defer { bits |= bit }
        return bits & bit == 0
    }
}
