import Foundation
import WidgetCore

/// What a host shows of an entry whose kind has no template for it: one short line and a
/// tooltip, from the content alone. Shared by every host so a kind without templates reads
/// the same in a bar and on a web page.
public enum GenericText {
    /// Content keys that name what an entry is about, most telling first: the first one
    /// holding a plain value is the line.
    public static let preferredKeys = ["text", "title", "value", "label", "name", "message", "summary", "status"]

    /// The longest line a generic rendering gives; a bar has room for little more.
    public static let lineLimit = 60

    /// The line: a preferred key's value, else the content itself when it is a plain value,
    /// else a compact `key value` rendering of the plain fields, else the kind's display name.
    public static func text(_ content: JSONValue, displayName: String) -> String {
        if case .object(let fields) = content {
            for key in preferredKeys {
                if let value = fields[key], let plain = plain(value), !plain.isEmpty { return clipped(plain) }
            }
        }
        if let plain = plain(content), !plain.isEmpty { return clipped(plain) }
        let compact = fieldsText(content, separator: " · ")
        return compact.isEmpty ? displayName : clipped(compact)
    }

    /// The line with every live date read as its text at `now` (`LiveDate.resolved`).
    public static func text(_ content: JSONValue, displayName: String, now: Date, timeZone: TimeZone) -> String {
        text(LiveDate.resolved(content, now: now, timeZone: timeZone), displayName: displayName)
    }

    /// The tooltip with every live date read as its text at `now`.
    public static func tooltip(_ content: JSONValue, displayName: String, now: Date, timeZone: TimeZone) -> String {
        tooltip(LiveDate.resolved(content, now: now, timeZone: timeZone), displayName: displayName)
    }

    /// The tooltip: the display name, then every plain field on a line of its own.
    public static func tooltip(_ content: JSONValue, displayName: String) -> String {
        let fields = fieldsText(content, separator: "\n")
        if !fields.isEmpty { return displayName + "\n" + fields }
        if let plain = plain(content), !plain.isEmpty { return displayName + "\n" + plain }
        return displayName
    }

    /// `&`, `<` and `>` as entities: enough for Pango markup and HTML text, where the generic
    /// rendering is not a template and so is not escaped by one.
    public static func markupEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A string, number or boolean as text; nil for null, arrays and objects.
    static func plain(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let number): return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// `key value` for each plain field of an object, in key order (a JSON object has no
    /// order of its own, so sorting keeps the line the same from entry to entry).
    static func fieldsText(_ content: JSONValue, separator: String) -> String {
        guard case .object(let fields) = content else { return "" }
        return fields.keys.sorted().compactMap { key in plain(fields[key]!).map { "\(key) \($0)" } }.joined(separator: separator)
    }

    static func clipped(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > lineLimit ? String(line.prefix(lineLimit - 1)) + "…" : line
    }
}
