import Foundation

/// SVG written into one growing string. Numbers are written with one decimal by integer
/// arithmetic, not Foundation's formatters: a picture of many stacks holds a great many.
struct SVGText {
    private(set) var text = ""

    init(capacity: Int) {
        text.reserveCapacity(capacity)
    }

    mutating func raw(_ string: String) {
        text += string
    }

    /// `value` with at most one decimal.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            text += "0"
            return
        }
        let tenths = Int((value * 10).rounded())
        if tenths < 0 { text += "-" }
        let magnitude = abs(tenths)
        text += String(magnitude / 10)
        if magnitude % 10 != 0 {
            text += "."
            text += String(magnitude % 10)
        }
    }

    /// `string` escaped for an attribute or text node.
    mutating func escaped(_ string: String) {
        for character in string.unicodeScalars {
            switch character {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"": text += "&quot;"
            case "'": text += "&#39;"
            default:
                // Control characters are not allowed in XML 1.0.
                if character.value < 0x20 && character != "\t" { text += " " } else { text.unicodeScalars.append(character) }
            }
        }
    }

    /// `<text x= y= class=>string</text>`
    mutating func label(_ string: String, x: Double, y: Double, className: String, anchor: String? = nil) {
        raw("<text x=\"")
        number(x)
        raw("\" y=\"")
        number(y)
        raw("\" class=\"")
        raw(className)
        if let anchor {
            raw("\" text-anchor=\"")
            raw(anchor)
        }
        raw("\">")
        escaped(string)
        raw("</text>\n")
    }
}
