import Foundation
import Mustache
import WidgetCore

/// A descriptor's Mustache template, compiled once, rendering an entry's content. Shared by
/// every host (the web host's cards, the bar adapters) so one template means the same to all.
public struct EntryTemplate: Sendable {
    private let template: MustacheTemplate

    /// `html` escapes what the content holds for HTML and Pango markup (Waybar's text is
    /// Pango markup); plain text, for a host that draws labels as they are, does not.
    public init(_ text: String, escaping: Escaping = .html) throws(EntryTemplateProblem) {
        let pragma = escaping == .html ? "" : "{{% CONTENT_TYPE: TEXT}}"
        let source = pragma + text
        do {
            template = try MustacheTemplate(string: source)
        } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber
            let column = error.context.columnNumber - (line == 1 ? pragma.count : 0)
            throw EntryTemplateProblem(reason: "line \(line), column \(column): \(error.error)")
        } catch {
            throw EntryTemplateProblem(reason: "\(error)")
        }
    }

    public enum Escaping: Sendable { case html, none }

    /// The content's keys are the template's names; `extra` adds names of the host's own
    /// (the instance, the family, the entry's date), which the content's keys win over.
    /// A live date (`LiveDate`) reads as its text at `now` in `timeZone`; `markup` wraps each
    /// such text in the `<time class="live-date">` element the web page keeps counting.
    public func render(
        _ content: JSONValue, extra: [String: JSONValue] = [:], now: Date = Date(), timeZone: TimeZone = .current,
        markup: Bool = false
    ) -> String {
        render(content, extra: extra, clock: LiveDateValue.Clock(now: now, timeZone: timeZone, markup: markup))
    }

    /// The plain text at `now`, and when it next reads differently with the same content: the
    /// earliest next change of the live dates it printed (a live date the template leaves
    /// out, or prints only as `time` or `date`, changes nothing); nil when none changes.
    public func renderLive(
        _ content: JSONValue, extra: [String: JSONValue] = [:], now: Date, timeZone: TimeZone = .current
    ) -> (text: String, nextChange: Date?) {
        let reads = LiveDateReads()
        let text = render(content, extra: extra, clock: LiveDateValue.Clock(now: now, timeZone: timeZone, markup: false, reads: reads))
        return (text, reads.nextChange)
    }

    private func render(_ content: JSONValue, extra: [String: JSONValue], clock: LiveDateValue.Clock) -> String {
        var names = extra
        if case .object(let fields) = content {
            names.merge(fields) { _, fromContent in fromContent }
        } else {
            names["content"] = content
        }
        let text = template.render(Self.mustacheValue(.object(names), clock))
        return clock.markup ? LiveDateValue.expandMarkers(text, clock) : text
    }

    /// Mustache reads dictionaries, arrays and plain values; numbers keep their JSON spelling.
    /// A null is left out of its object, so it reads as absent (false in a section), and is
    /// empty text in an array.
    static func mustacheValue(_ value: JSONValue, _ clock: LiveDateValue.Clock) -> Any {
        if let live = LiveDate(value) { return LiveDateValue(live: live, clock: clock) }
        switch value {
        case .null: return ""
        case .bool(let flag): return flag
        case .integer(let number): return number
        case .number(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map { mustacheValue($0, clock) }
        case .object(let fields): return fields.filter { $0.value != .null }.mapValues { mustacheValue($0, clock) }
        }
    }
}

/// Why a template does not compile, with where.
public struct EntryTemplateProblem: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
