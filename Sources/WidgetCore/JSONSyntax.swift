/// Where JSON text first breaks RFC 8259, as a line and a column, for files people edit by
/// hand. Foundation's decoder only says "not valid JSON", and it takes some text the RFC does
/// not (a trailing comma), which other JSON tools then refuse. A key repeated in one object
/// is refused too: which of the two counts would otherwise depend on the reader.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based; columns count characters, not bytes.
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

public enum JSONSyntax {
    /// Deeper nesting is refused rather than followed, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    /// nil when `bytes` hold exactly one JSON value, with white space around it.
    public static func check(_ bytes: [UInt8]) -> JSONSyntaxError? {
        var reader = Reader(bytes: bytes)
        do throws(JSONSyntaxError) {
            reader.skipSpace()
            try reader.value(depth: 0)
            reader.skipSpace()
            if reader.offset < bytes.count { throw reader.failure("unexpected text after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        func failure(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
            let end = min(position ?? offset, bytes.count)
            var line = 1
            var column = 1
            for byte in bytes[..<end] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return JSONSyntaxError(line: line, column: column, message: message)
        }

        /// What the reader found, for messages: a character, or the end.
        var found: String {
            guard let byte = peek else { return "the end of the text" }
            if byte < 0x20 || byte >= 0x7F { return "byte 0x\(String(byte, radix: 16))" }
            return "'\(Character(Unicode.Scalar(byte)))'"
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) {
            guard let byte = peek else { throw failure("expected a value, found the end of the text") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw failure("expected a value, found \(found)")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) {
            guard depth <= JSONSyntax.maximumDepth else { throw failure("nested more than \(JSONSyntax.maximumDepth) deep") }
            offset += 1
            skipSpace()
            if peek == UInt8(ascii: "}") {
                offset += 1
                return
            }
            var keys: Set<[UInt8]> = []
            while true {
                guard peek == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes, found \(found)") }
                let start = offset
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw failure("key \(String(decoding: bytes[start..<offset], as: UTF8.self)) appears twice in this object", at: start)
                }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw failure("expected ':' after the key, found \(found)") }
                offset += 1
                skipSpace()
                try value(depth: depth)
                if try closes(with: UInt8(ascii: "}"), after: "a member") { return }
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) {
            guard depth <= JSONSyntax.maximumDepth else { throw failure("nested more than \(JSONSyntax.maximumDepth) deep") }
            offset += 1
            skipSpace()
            if peek == UInt8(ascii: "]") {
                offset += 1
                return
            }
            while true {
                try value(depth: depth)
                if try closes(with: UInt8(ascii: "]"), after: "an element") { return }
            }
        }

        /// Reads what follows a member or an element: true after the closing byte, false after
        /// a comma that another one follows.
        mutating func closes(with closing: UInt8, after what: String) throws(JSONSyntaxError) -> Bool {
            let close = Character(Unicode.Scalar(closing))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","):
                let comma = offset
                offset += 1
                skipSpace()
                if peek == closing { throw failure("a comma before '\(close)' (no trailing commas in JSON)", at: comma) }
                return false
            case closing:
                offset += 1
                return true
            default:
                throw failure("expected ',' or '\(close)' after \(what), found \(found)")
            }
        }

        /// The string's bytes as written (escapes not decoded: enough to tell keys apart,
        /// except a key written once plainly and once escaped, which the decoder still reads).
        mutating func string() throws(JSONSyntaxError) -> [UInt8] {
            let start = offset
            offset += 1
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return Array(bytes[(start + 1)..<(offset - 1)])
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard let escaped = peek else { break }
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        offset += 1
                    case UInt8(ascii: "u"):
                        offset += 1
                        for _ in 0..<4 {
                            guard let digit = peek, digit.isHexDigit else { throw failure("expected four hex digits after \\u") }
                            offset += 1
                        }
                    default:
                        throw failure("unknown escape \\\(Character(Unicode.Scalar(escaped)))")
                    }
                case 0..<0x20:
                    throw failure(byte == 0x0A ? "a line break inside a string (missing closing quote?)" : "a control character inside a string")
                default:
                    offset += 1
                }
            }
            throw failure("a string without its closing quote", at: start)
        }

        mutating func number() throws(JSONSyntaxError) {
            if peek == UInt8(ascii: "-") { offset += 1 }
            guard let first = peek, first.isDigit else { throw failure("expected a digit, found \(found)") }
            offset += 1
            if first == UInt8(ascii: "0"), let next = peek, next.isDigit {
                throw failure("a number with a leading zero")
            }
            while let byte = peek, byte.isDigit { offset += 1 }
            if peek == UInt8(ascii: ".") {
                offset += 1
                guard let digit = peek, digit.isDigit else { throw failure("expected a digit after '.', found \(found)") }
                while let byte = peek, byte.isDigit { offset += 1 }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                offset += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
                guard let digit = peek, digit.isDigit else { throw failure("expected a digit in the exponent, found \(found)") }
                while let byte = peek, byte.isDigit { offset += 1 }
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let start = offset
            let expected = word.withUTF8Buffer { Array($0) }
            guard bytes.count - offset >= expected.count, Array(bytes[offset..<(offset + expected.count)]) == expected else {
                throw failure("expected a value (true, false, null, a number, a string, an object or an array)", at: start)
            }
            offset += expected.count
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
