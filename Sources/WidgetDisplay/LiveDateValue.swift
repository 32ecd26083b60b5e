import Foundation
import Mustache
import WidgetCore

/// A live date as a template sees it. `{{departure}}` is its text now in its own style;
/// the helper `{{timer(departure)}}` (likewise `relative`, `offset`, `time`, `date`) is its
/// text in that style; `{{departure.date}}` is the ISO 8601 date, `{{departure.style}}` the style.
struct LiveDateValue: MustacheCustomRenderable, MustacheTransformable, MustacheParent {
    /// The instant and zone a rendering reads, and whether the text goes out as markup.
    struct Clock {
        var now: Date
        var timeZone: TimeZone
        var markup: Bool
        /// Where the text printed is noted, when the caller asks when it next changes.
        var reads: LiveDateReads? = nil
    }

    var live: LiveDate
    var clock: Clock

    var renderText: String {
        guard clock.markup else { return text }
        // Mustache escapes what a value renders, so the element cannot be written here: a
        // marker of characters no escaping touches stands in for it until the render is done.
        return "\(Self.open)\(ISO8601.string(from: live.date)) \(live.style.rawValue)\(Self.close)"
    }

    var isNull: Bool { false }

    /// The text now, noted as printed.
    private var text: String {
        clock.reads?.note(live, now: clock.now)
        return live.text(now: clock.now, timeZone: clock.timeZone)
    }

    func transform(_ name: String) -> Any? {
        LiveDate.Style(rawValue: name).map { LiveDateValue(live: LiveDate(date: live.date, style: $0), clock: clock) }
    }

    func child(named name: String) -> Any? {
        switch name {
        case "date": ISO8601.string(from: live.date)
        case "style": live.style.rawValue
        case "text": text
        default: nil
        }
    }

    static let open: Character = "\u{E000}"
    static let close: Character = "\u{E001}"

    /// Replaces each marker with its `<time>` element. A marker that content forged is read
    /// the same way: at worst it becomes one more live date, never markup of its own.
    static func expandMarkers(_ text: String, _ clock: Clock) -> String {
        guard text.contains(open) else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(of: open) {
            out += rest[..<start]
            let after = rest[rest.index(after: start)...]
            guard let end = after.firstIndex(of: close) else {
                rest = after
                continue
            }
            let parts = after[..<end].split(separator: " ")
            if parts.count == 2, let date = ISO8601.date(from: String(parts[0])), let style = LiveDate.Style(rawValue: String(parts[1])) {
                out += LiveDate(date: date, style: style).html(now: clock.now, timeZone: clock.timeZone)
            }
            rest = after[after.index(after: end)...]
        }
        return out + rest
    }
}

extension LiveDate {
    /// The element the web page finds and keeps current: its text now, the date and the style.
    public func html(now: Date, timeZone: TimeZone) -> String {
        let text = GenericText.markupEscaped(self.text(now: now, timeZone: timeZone))
        return #"<time class="live-date" datetime="\#(ISO8601.string(from: date))" data-live-style="\#(style.rawValue)">\#(text)</time>"#
    }
}
