/// Control characters written out as text, so that a name, an intent type or an error a
/// client or provider chose cannot start a new log line, move a terminal's cursor, recolour
/// it or reorder what a reader sees (docs/running.md, Logs).
///
/// Escaped: C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F), the line and paragraph separators
/// (U+2028, U+2029) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069). Newline, carriage return and tab read `\n`, `\r`, `\t`; every other one
/// `\u{HEX}` as in a Swift literal (`\u{1B}` for ESC). A backslash stays as it is: the form is
/// for reading, not for decoding back.
public enum ControlEscaping {
    /// Whether `scalar` is written escaped.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every escaped scalar written out; `text` itself when it holds none (the
    /// common case costs one scan and no copy).
    public static func escaped(_ text: String) -> String {
        escaped(text, keepingNewlines: false)
    }

    /// As `escaped`, keeping the newlines of a text made of several lines on purpose (a
    /// printer's own layout); a value put in it should be escaped whole first.
    public static func escapedKeepingNewlines(_ text: String) -> String {
        escaped(text, keepingNewlines: true)
    }

    // By scalars: a String's "\r\n" is one Character, and must not hide its carriage return.
    private static func escaped(_ text: String, keepingNewlines: Bool) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool { isEscaped(scalar) && !(keepingNewlines && scalar == "\n") }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard escapes(scalar) else {
                out.append(scalar)
                continue
            }
            let written: String = switch scalar {
            case "\n": #"\n"#
            case "\r": #"\r"#
            case "\t": #"\t"#
            default: #"\u{"# + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: written.unicodeScalars)
        }
        return String(out)
    }
}
