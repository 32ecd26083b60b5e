import Foundation
import Synchronization
import WidgetCore
import WidgetDisplay
import WidgetProtocol

/// An entry as a card's HTML: the kind's HTML template (`templates.html`, read from the file
/// the descriptor names and compiled once per change of the file) or the generic card.
final class CardRenderer: Sendable {
    private struct Compiled {
        var modified: Date?
        var template: EntryTemplate?
    }

    private let compiled = Mutex<[String: Compiled]>([:])

    /// As widgetd's default `max-descriptor-bytes`: a template larger is not read, and its
    /// cards are the generic one.
    static let maxTemplateBytes = 1 << 20

    /// `extra` are the names the host adds for a template (docs/widgets.md, "Templates").
    /// Live dates read as at `now` (the daemon's), each in the element the page keeps counting.
    func html(_ entry: WidgetEntry?, kind: WidgetKindInfo?, extra: [String: JSONValue], now: Date = Date()) -> String {
        guard let entry else {
            return #"<div class="generic generic-empty">Waiting for its timeline…</div>"#
        }
        guard let path = kind?.templates?.html, let template = template(at: path) else {
            return GenericCard.html(entry.content, now: now)
        }
        return template.render(entry.content, extra: extra, now: now, timeZone: .current, markup: true)
    }

    /// The template at `path`, read again when the file changed (widgetd re-reads a changed
    /// descriptor at once; its template file may change without it). Nil when it cannot be
    /// read or compiled now: the card falls back to the generic one.
    private func template(at path: String) -> EntryTemplate? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let modified = attributes?[.modificationDate] as? Date
        if let known = compiled.withLock({ $0[path] }), known.modified == modified { return known.template }
        // Read only a regular file of a template's size: a FIFO would block the request, and a
        // huge file would be held whole.
        let readable = attributes?[.type] as? FileAttributeType == .typeRegular
            && (attributes?[.size] as? Int).map { $0 <= Self.maxTemplateBytes } == true
        let text = readable ? FileManager.default.contents(atPath: path).map { String(decoding: $0.prefix(Self.maxTemplateBytes), as: UTF8.self) } : nil
        let template = text.flatMap { try? EntryTemplate($0, escaping: .html) }
        compiled.withLock { $0[path] = Compiled(modified: modified, template: template) }
        return template
    }
}
