/// Whether stored text is one JSON value: the start-up read checks every configuration, entry
/// content and actions column with it, since stored text is written into answers as it is
/// and one damaged row would otherwise break every answer that shows it. A syntax check over
/// SQLite's column memory, with no allocation, so that a million entries cost one pass each.
enum StoredJSON {
    /// Deeper nesting is refused, as by the daemon's request parser.
    static let maximumDepth = 512

    static func isValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.value(depth: 0) else { return false }
        scanner.skipSpace()
        return scanner.offset == bytes.count
    }

    /// Whether it is one JSON object (a configuration).
    static func isObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        return scanner.peek == UInt8(ascii: "{") && isValue(bytes)
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func value(depth: Int) -> Bool {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"): return members(depth: depth + 1, close: UInt8(ascii: "}"), keyed: true)
            case UInt8(ascii: "["): return members(depth: depth + 1, close: UInt8(ascii: "]"), keyed: false)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return false
            }
        }

        /// An object's members or an array's elements, from the opening bracket.
        mutating func members(depth: Int, close: UInt8, keyed: Bool) -> Bool {
            guard depth <= StoredJSON.maximumDepth else { return false }
            offset += 1
            skipSpace()
            if peek == close {
                offset += 1
                return true
            }
            while true {
                if keyed {
                    guard peek == UInt8(ascii: "\""), string() else { return false }
                    skipSpace()
                    guard peek == UInt8(ascii: ":") else { return false }
                    offset += 1
                    skipSpace()
                }
                guard value(depth: depth) else { return false }
                skipSpace()
                switch peek {
                case UInt8(ascii: ","):
                    offset += 1
                    skipSpace()
                case close:
                    offset += 1
                    return true
                default:
                    return false
                }
            }
        }

        mutating func string() -> Bool {
            offset += 1
            while let byte = peek {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = peek else { return false }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = peek, digit.isHexDigit else { return false }
                            offset += 1
                        }
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        mutating func number() -> Bool {
            if peek == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek, first.isDigit else { return false }
            offset += 1
            if first == UInt8(ascii: "0"), let next = peek, next.isDigit { return false }
            while let byte = peek, byte.isDigit { offset += 1 }
            if peek == UInt8(ascii: ".") {
                offset += 1
                guard let digit = peek, digit.isDigit else { return false }
                while let byte = peek, byte.isDigit { offset += 1 }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                offset += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
                guard let digit = peek, digit.isDigit else { return false }
                while let byte = peek, byte.isDigit { offset += 1 }
            }
            return true
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let matches = word.withUTF8Buffer { expected in
                bytes.count - offset >= expected.count && expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
            }
            if matches { offset += word.utf8CodeUnitCount }
            return matches
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
