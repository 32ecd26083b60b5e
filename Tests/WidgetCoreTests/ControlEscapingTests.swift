import Testing
import WidgetCore

/// Control characters in log lines and widgetctl's output: written as `\n`, `\u{1B}`.
@Suite struct ControlEscapingTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("X\n2026-11-27T09:14:00Z info widgetd stopped FORGED\u{1B}[31m", #"X\n2026-11-27T09:14:00Z info widgetd stopped FORGED\u{1B}[31m"#),
        ("\u{1B}[2J\n", #"\u{1B}[2J\n"#),
        ("a\rb\tc", #"a\rb\tc"#),
        ("\u{0}\u{7}\u{1F}\u{7F}", #"\u{0}\u{7}\u{1F}\u{7F}"#),
        ("\u{80}\u{9B}\u{9F}", #"\u{80}\u{9B}\u{9F}"#),
        ("\u{2028}\u{2029}", #"\u{2028}\u{2029}"#),
        ("\u{202A}\u{202E}\u{2066}\u{2069}", #"\u{202A}\u{202E}\u{2066}\u{2069}"#),
        // Printable text around them stays, a backslash too; neighbours of the ranges are not escaped.
        ("Zürich → ▶ \\n \u{A0}\u{202F}\u{2065}\u{206A}", "Zürich → ▶ \\n \u{A0}\u{202F}\u{2065}\u{206A}"),
        ("👩‍👩‍👧", "👩‍👩‍👧"),
    ])
    func escapes(input: String, expected: String) {
        #expect(ControlEscaping.escaped(input) == expected)
        #expect(!ControlEscaping.escaped(input).unicodeScalars.contains(where: ControlEscaping.isEscaped))
    }

    @Test func keepsALayoutsNewlines() {
        #expect(ControlEscaping.escapedKeepingNewlines("a\n\u{1B}[31mb\r\n") == "a\n\\u{1B}[31mb\\r\n")
        #expect(ControlEscaping.escapedKeepingNewlines("one\ntwo") == "one\ntwo")
    }

    /// Every scalar of the escaped set, and none outside it, in the first 0x2100.
    @Test func theEscapedSet() {
        for value in UInt32(0)..<0x2100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            #expect(ControlEscaping.isEscaped(scalar) == expected, "U+\(String(value, radix: 16))")
        }
    }
}
