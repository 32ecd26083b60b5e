import Foundation

/// Which bar `watch --format` writes for. Waybar's custom module with `"return-type": "json"`
/// reads `text`, `tooltip`, `class` (a string or an array of strings) and `alt` from each
/// line, and takes `text` and `tooltip` as Pango markup; eww's `deflisten` stores each line as
/// the variable's value, so a JSON object per line gives `${var.text}` and the others, drawn
/// as plain text.
enum BarFormat: String, CaseIterable {
    case waybar, eww

    /// Whether text is Pango markup, so content must be escaped.
    var isMarkup: Bool { self == .waybar }
}

/// One state of a bar module: what one output line says.
struct BarLine: Equatable {
    var text: String
    var tooltip: String
    /// CSS classes, each already CSS-safe.
    var classes: [String]
    var alt: String

    /// The line for `format`, a compact JSON object without a newline.
    func encoded(for format: BarFormat) -> String {
        var object: [String: Any] = ["text": text, "tooltip": tooltip, "alt": alt]
        // eww's `:class` takes one space-separated string; Waybar takes the list.
        object["class"] = format == .waybar ? classes : classes.joined(separator: " ")
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A CSS class from any name: lowercase letters, digits, `-` and `_`, others as `-`, never
    /// starting with a digit.
    static func cssClass(_ name: String) -> String {
        var out = String(name.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
        if out.first.map({ $0.isNumber || $0 == "-" }) ?? true { out = "w-" + out }
        return out
    }
}
