/// Values the campaign puts into requests. `valid` ones are well-formed JSON of every type,
/// ordinary and extreme; `broken` ones are not JSON at all. Only frames that carry an id get
/// broken or extreme values: a notification must be certain to parse, or whether it is
/// answered could not be predicted.
enum HostileValues {
    /// Small, well-formed values of every JSON type.
    static let plain: [RawJSON] = [
        .text("null"), .text("true"), .text("false"), .text("0"), .text("-1"), .text("1"), .text("60"), .text("1.5"),
        .string(""), .string("x"), .string("fuzz.unknown"), .string("systemSmall"), .string("2026-01-05T09:00:00Z"),
        .string("atEnd"), .text("[]"), .text("[1,\"a\",null]"), .text("{}"), .text("{\"a\":1}"),
        .string("ünïcødé ✓ 😀"),
    ]

    /// Well-formed but extreme: numbers no Swift type holds, odd dates, escapes, large containers.
    static let extreme: [RawJSON] = [
        .text("1e400"), .text("-1e400"), .text("1e-400"), .text("18446744073709551616"), .text("9223372036854775808"),
        .text("-9223372036854775809"), .text("9223372036854775807"), .text("-9223372036854775808"), .text("-0"),
        .text("-0.0"), .text("5e-324"), .text("1.7976931348623157e308"), .text("1e300"), .text("-1e300"),
        .text("4294967296"), .text("0.1e999999999"), .text(String(repeating: "9", count: 1000)),
        .text("-" + String(repeating: "1", count: 20000)), .text("1." + String(repeating: "0", count: 5000) + "1"),
        .string("\\u0000\\n\\t\\\"\\\\\\/"), .string("\\ud800"), .string("\\udfff\\ud800x"), .string("\\uDBFF\\uDFFF"),
        .string("2026-13-45T99:99:99Z"), .string("99999-01-01T00:00:00Z"), .string("0000-01-01T00:00:00Z"),
        .string("-0001-12-31T23:59:59Z"), .string("2026-01-05T08:00:00.123456789012Z"), .string("2026-01-05T08:00:00+99:99"),
        .string("1970-01-01T00:00:00Z"), .string("9999-12-31T23:59:59.999Z"), .string("systemHuge"),
        .string(String(repeating: "é", count: 2000)), .string(String(repeating: "\\u00e9", count: 2000)),
        .text("[" + Array(repeating: "1", count: 10000).joined(separator: ",") + "]"),
        .text("{" + (0..<1000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"),
        .text("{\"\":null,\"a\":{\"b\":{\"c\":[{}]}}}"), .text("[[[[[[[[[[]]]]]]]]]]"),
    ]

    /// Not JSON: tokens other parsers accept, and near misses.
    static let broken: [RawJSON] = [
        .text("NaN"), .text("-NaN"), .text("Infinity"), .text("-Infinity"), .text("+Infinity"), .text("nan"), .text("inf"),
        .text("undefined"), .text("0x10"), .text("01"), .text("+1"), .text(".5"), .text("1."), .text("1e"), .text("--1"),
        .text("'single'"), .text("\"unterminated"), .text("\"\\x41\""), .text("\"\\u12\""), .text("\"a\tb\""),
        .text("tru"), .text("nul"), .text("[1,]"), .text("{\"a\":1,}"), .text("{,}"), .text("["), .text("{"), .text(""),
        .text("\"\\ud800\\u\""), .text("1e+"), .text("- 1"), .text("/* comment */ 1"),
    ]

    /// Byte sequences that are not UTF-8: bad lead and continuation bytes, overlong forms,
    /// UTF-16 surrogates, code points past U+10FFFF, a sequence cut short, a raw NUL.
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xBF, 0xBF], [0x00],
    ]

    /// Ids of every JSON type but the two clean ones (a fresh integer or string per frame).
    static let ids: [RawJSON] = [
        .text("null"), .text("true"), .text("false"), .text("1.5"), .text("-0"), .text("1e400"), .text("18446744073709551616"),
        .text("9223372036854775807"), .text("-9223372036854775808"), .text("-9223372036854775809"), .text("[]"),
        .text("[1]"), .text("{}"), .text("{\"id\":1}"), .string(""), .string("😀"), .string("\\u0000"),
        .string(String(repeating: "i", count: 10000)), .text("NaN"), .text("0.0"), .text("1e2"),
    ]

    /// What replaces `method`: other case, spacing, prefixes, and non-strings.
    static let methods: [RawJSON] = [
        .string("PING"), .string("ping "), .string(" ping"), .string(""), .string("rpc.discover"), .string("clock."),
        .string("stack"), .string("stack.create.x"), .string("event"), .string("ping\\u0000"), .text("null"), .text("1"),
        .text("[]"), .text("{}"), .text("true"), .string(String(repeating: "m", count: 5000)),
    ]

    /// What replaces `jsonrpc`.
    static let versions: [RawJSON] = [
        .string("1.0"), .text("2.0"), .text("2"), .string("2"), .text("null"), .string("2.0 "), .string(""), .text("[\"2.0\"]"),
    ]

    /// What replaces the whole `params`: everything but an object (absent and null are allowed).
    static let params: [RawJSON] = [
        .text("[]"), .text("[1]"), .text("\"x\""), .text("1"), .text("true"), .text("null"), .text("[{}]"), .text("-0"),
    ]
}
