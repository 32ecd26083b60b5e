import Foundation
import WidgetCore
import WidgetDisplay

/// The card of a kind without an HTML template: the entry's content laid out as it is, a
/// lone value large, an object's keys as labelled rows, so any widget is readable at once.
enum GenericCard {
    /// Rows beyond these are left out: a card has the room of its family, not a page.
    static let maximumRows = 6

    static func html(_ content: JSONValue, now: Date = Date()) -> String {
        // A live date is the element the page keeps counting, alone or as a row's value.
        func value(_ value: JSONValue) -> String {
            LiveDate(value)?.html(now: now, timeZone: .current) ?? HTMLText.escape(text(LiveDate.resolved(value, now: now, timeZone: .current)))
        }
        if LiveDate(content) != nil { return #"<div class="generic generic-value">\#(value(content))</div>"# }
        switch content {
        case .object(let fields) where !fields.isEmpty:
            let keys = fields.keys.sorted()
            var rows = keys.prefix(maximumRows).map { key in
                #"<div class="generic-row"><dt>\#(HTMLText.escape(label(key)))</dt><dd>\#(value(fields[key]!))</dd></div>"#
            }
            if keys.count > maximumRows { rows.append(#"<div class="generic-more">+\#(keys.count - maximumRows) more</div>"#) }
            return #"<dl class="generic">\#(rows.joined())</dl>"#
        case .null, .object:
            return #"<div class="generic generic-empty">No content</div>"#
        default:
            return #"<div class="generic generic-value">\#(value(content))</div>"#
        }
    }

    /// `fullHealthAt` reads "full health at".
    static func label(_ key: String) -> String {
        var words = ""
        for character in key {
            if character.isUppercase, !words.isEmpty { words += " " }
            words += character == "_" || character == "-" ? " " : character.lowercased()
        }
        return words
    }

    /// A value as one line: text as it is, a list of plain values joined, anything deeper as JSON.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "–"
        case .array(let items) where items.allSatisfy(isPlain): return items.map(text).joined(separator: ", ")
        case .bool, .integer, .number, .array, .object: return value.compactText
        }
    }

    private static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }
}
