import WidgetCore

/// Numbers read the way `JSONDecoder` reads them into each Swift type (swift-foundation's
/// `unwrapFixedWidthInteger` and `unwrapFloatingPoint`), so that a fast path and the general
/// decoder give the same value.
extension JSONCursor {
    /// Where a number lies, its grammar checked.
    struct Number {
        var range: Range<Int>
        /// No fraction, no exponent.
        var isInteger: Bool
    }

    /// The JSON number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() -> Number? {
        skipSpace()
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard let first = peek, isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var isInteger = true
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard let digit = peek, isDigit(digit) else { return nil }
            skipDigits()
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            isInteger = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard let digit = peek, isDigit(digit) else { return nil }
            skipDigits()
        }
        return Number(range: start..<index, isInteger: isInteger)
    }

    /// An integer written without fraction or exponent, in at most 18 digits (so it cannot
    /// overflow an `Int64`); longer ones are left to the general decoder.
    mutating func integer() -> Int64? {
        guard let number = number(), number.isInteger else { return nil }
        return integerValue(number)
    }

    /// A number as `JSONDecoder` decodes a `Double`: correctly rounded (`Double(String)` and
    /// Foundation's `strtod` agree), refused when it overflows or underflows to zero.
    mutating func double() -> Double? {
        guard let number = number(), let value = Double(text(number)), value.isFinite else { return nil }
        guard value != 0 || isTrueZero(number) else { return nil }
        return value
    }

    /// A number as `JSONValue` decodes it: `JSONDecoder` first tries `Int64`, which takes
    /// `2.0`, `1e2`, even `1e-400` (a `Double` that is an exact integer below 2^53), then
    /// `Double`. An integer of 19 digits or more, or an exact one at or above 2^53 written
    /// with a fraction or exponent, takes Foundation's `Decimal` route: left to the general
    /// decoder.
    mutating func numberValue() -> JSONValue? {
        guard let number = number() else { return nil }
        if number.isInteger { return integerValue(number).map(JSONValue.integer) }
        guard let value = Double(text(number)), value.isFinite else { return nil }
        if let integer = Int64(exactly: value) {
            return value.magnitude < 0x1p53 ? .integer(integer) : nil
        }
        return .number(value)
    }

    private func integerValue(_ number: Number) -> Int64? {
        var index = number.range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard number.range.upperBound - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < number.range.upperBound {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return negative ? -value : value
    }

    private func text(_ number: Number) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[number.range]), as: UTF8.self)
    }

    /// Foundation's test for a zero that was written as one: no non-zero digit before the
    /// exponent.
    private func isTrueZero(_ number: Number) -> Bool {
        for byte in bytes[number.range] {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: continue
            }
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { index += 1 }
    }
}

extension JSONValue {
    /// A number as `WidgetJSON.encoder` writes it: an integer's digits; a `Double`'s
    /// `description` without a trailing `.0`, as swift-foundation's `JSONEncoder` does.
    func appendNumberText(to out: inout [UInt8]) {
        switch self {
        case .integer(let value): out.append(contentsOf: String(value).utf8)
        case .number(let value):
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out.append(contentsOf: text.utf8)
        default: break
        }
    }
}
