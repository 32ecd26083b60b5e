import Foundation
import WidgetCore

/// The page's stacks and widgets as HTML, the one rendering of them: `/` arrives with it (a
/// browser shows the widgets before, or without, running the script), and `/api/page` carries
/// it for the script to put in place on every change. Every value from widgetd is escaped; a
/// card's body is the `CardRenderer`'s, kept inside its card (`HTMLFragment`). What only one
/// page knows (a tap under way, what `perform` answered) the script lays over it.
struct PageMarkup: Encodable, Sendable {
    /// The clock in the top bar.
    var clock: String
    /// `#stacks`' content: one `article` per stack.
    var stacks: String
    /// `#loose`' content: the cards of the instances in no stack.
    var loose: String

    static let none = PageMarkup(clock: "", stacks: "", loose: "")

    init(clock: String, stacks: String, loose: String) {
        self.clock = clock
        self.stacks = stacks
        self.loose = loose
    }

    init(_ model: PageModel) {
        clock = (model.clock == "virtual" ? "virtual clock " : "") + Self.when(model.now)
        stacks = model.stacks.map { Self.stack($0, model.cards) }.joined()
        loose = model.loose.compactMap { id in model.cards[id].map { Self.card($0, role: "single") } }.joined()
    }

    /// `2026-01-05 10:01:00 UTC`, as the page writes dates.
    static func when(_ date: Date) -> String {
        var text = ISO8601.string(from: date)
        if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) + "Z" }
        return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }

    /// A stack: its name and controls, the top card large with a dot per widget, the others
    /// beside it at half size.
    static func stack(_ stack: PageModel.Stack, _ cards: [InstanceID: PageModel.Card]) -> String {
        let name = HTMLText.escape(stack.name)
        let top = stack.top.flatMap { cards[$0] }.map { card($0, role: "top") }
            ?? #"<div class="card top placeholder">Empty stack</div>"#
        let dots = stack.instances.map { $0 == stack.top ? #"<span class="dot on"></span>"# : #"<span class="dot"></span>"# }.joined()
        let peeks = stack.instances.filter { $0 != stack.top }.compactMap { cards[$0].map { card($0, role: "peek") } }
        return #"<article class="stack" data-stack="\#(name)"><header><h2>\#(name)</h2>"#
            + #"<label class="toggle"><input type="checkbox" data-action="smart-rotate"\#(stack.smartRotate ? " checked" : "")>Smart Rotate</label>"#
            + #"<button type="button" data-action="explain">Explain</button><button type="button" data-action="log">Log</button></header>"#
            + #"<div class="stack-row"><div class="stack-top">\#(top)<div class="pager">"#
            + #"<button type="button" data-action="previous" aria-label="Previous widget">‹</button><span class="dots">\#(dots)</span>"#
            + #"<button type="button" data-action="next" aria-label="Next widget">›</button></div></div>"#
            + (peeks.isEmpty ? "" : #"<div class="peeks">\#(peeks.joined())</div>"#) + "</div></article>"
    }

    /// A card: `role` is `top`, `peek` (beside a stack's top) or `single` (in no stack).
    static func card(_ card: PageModel.Card, role: String) -> String {
        let id = HTMLText.escape(card.id)
        let family = HTMLText.escape(card.family.rawValue)
        let date = card.entryDate.map { HTMLText.escape(ISO8601.string(from: $0)) } ?? ""
        let disabled = card.invalidated ? " disabled" : ""
        let buttons = card.actions.map {
            #"<button type="button" data-perform="\#(HTMLText.escape($0.id))"\#(disabled)>\#(HTMLText.escape($0.title))</button>"#
        }
        return #"<div class="card \#(role) family-\#(family)\#(card.invalidated ? " invalidated" : "")" data-instance="\#(id)" "#
            + #"data-kind="\#(HTMLText.escape(card.kind))" data-shown="" data-entry-date="\#(date)"\#(card.invalidated ? #" data-invalidated="""# : "")>"#
            + #"<div class="face"><div class="card-body">\#(HTMLFragment.contained(card.html))</div></div>"#
            + (buttons.isEmpty ? "" : #"<div class="card-perform">\#(buttons.joined())</div>"#)
            + #"<div class="card-label">\#(HTMLText.escape(card.displayName))</div><div class="card-actions">"#
            + (card.configurable ? #"<button type="button" data-action="edit">Edit Widget</button>"# : "")
            + #"<button type="button" data-action="timeline">Timeline</button><button type="button" data-action="remove">Remove</button></div></div>"#
    }
}
