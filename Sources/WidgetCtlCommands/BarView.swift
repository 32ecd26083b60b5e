import Foundation
import WidgetCore
import WidgetDisplay
import WidgetProtocol
import WidgetdClient

/// What a bar module knows of its stack: the top, its current entry, and the kinds' templates.
/// Events update it; a query is made only when the event does not carry what changed (a new
/// top, a reloaded timeline), so an entry's date passing costs no round trip.
struct BarView {
    let stackName: String
    let format: BarFormat
    private(set) var stackExists = false
    private(set) var top: InstanceID?
    private var kind: String?
    private var family: WidgetFamily?
    private var entry: WidgetEntry?
    private var hasTimeline = false
    /// The top's last reload failed: what it shows is the previous timeline's.
    private var failed = false
    /// An action of the top was performed and its reload has not ended.
    private var invalidated = false
    private var kinds: [String: KindDisplay] = [:]

    init(stackName: String, format: BarFormat) {
        self.stackName = stackName
        self.format = format
    }

    /// A kind's display name and its bar templates, compiled once per read of the descriptors.
    struct KindDisplay {
        var displayName: String
        var text: EntryTemplate?
        var tooltip: EntryTemplate?
    }

    // MARK: Reading the daemon

    /// Reads everything again: the kinds, the stack and its top.
    mutating func load(_ queries: WidgetdConnection) throws(WidgetdClientError) {
        try loadKinds(queries)
        try loadStack(queries)
    }

    /// The descriptors' display names and templates. A template that does not compile here
    /// (the daemon accepted it, so only a different Mustache could refuse it) falls back to
    /// the generic text.
    mutating func loadKinds(_ queries: WidgetdConnection) throws(WidgetdClientError) {
        let result = try queries.call(Methods.Widgets.self)
        let escaping: EntryTemplate.Escaping = format.isMarkup ? .html : .none
        kinds = [:]
        for info in result.widgets {
            kinds[info.kind] = KindDisplay(
                displayName: info.displayName,
                text: info.templates?.text.flatMap { try? EntryTemplate($0, escaping: escaping) },
                tooltip: info.templates?.tooltip.flatMap { try? EntryTemplate($0, escaping: escaping) })
        }
    }

    /// The stack (`stack.show` also tells the daemon a host shows its top) and its top's
    /// current entry.
    mutating func loadStack(_ queries: WidgetdConnection) throws(WidgetdClientError) {
        do {
            let stack = try queries.call(Methods.StackShow.self, StackNameParams(name: stackName))
            stackExists = true
            top = stack.top
        } catch .daemon {
            // No such stack (yet): its creation comes as a `stack` event.
            stackExists = false
            top = nil
        }
        try loadTop(queries)
    }

    private mutating func loadTop(_ queries: WidgetdConnection) throws(WidgetdClientError) {
        kind = nil
        family = nil
        entry = nil
        hasTimeline = false
        failed = false
        invalidated = false
        guard let top else { return }
        do {
            let timeline = try queries.call(Methods.WidgetTimeline.self, InstanceParams(id: top))
            kind = timeline.kind
            family = timeline.family
            entry = timeline.currentEntry
            hasTimeline = timeline.receivedAt != nil
            failed = timeline.lastError != nil
            invalidated = timeline.invalidated == true
        } catch .daemon {
            // Removed meanwhile: the stack event that says so follows.
        }
    }

    // MARK: Events

    /// Whether an event line may change this module: it names the top or the stack, or it is
    /// a read of the descriptors. Every module gets every event; most name other instances,
    /// and this test spares decoding them (a false yes only costs the decoding).
    func mayConcern(_ line: Data) -> Bool {
        if let top, line.range(of: Data("\"\(top)\"".utf8)) != nil { return true }
        if line.range(of: Data(Self.jsonString(stackName).utf8)) != nil { return true }
        return line.range(of: Data(#""type":"widgets""#.utf8)) != nil
    }

    /// A name as it appears in the daemon's JSON, quotes included.
    private static func jsonString(_ text: String) -> String {
        (try? String(decoding: WidgetJSON.encoder.encode(text), as: UTF8.self)) ?? "\"\(text)\""
    }

    /// Takes in one event, querying the daemon when the event does not say enough.
    mutating func apply(_ event: WidgetEvent, _ queries: WidgetdConnection) throws(WidgetdClientError) {
        switch event.type {
        case .entryChange:
            guard let top, event.instance == top else { return }
            entry = event.entry
            hasTimeline = true
            invalidated = false
        case .invalidated:
            guard let top, event.instance == top else { return }
            invalidated = true
        case .reload:
            guard let top, event.instances?.contains(top) == true else { return }
            try loadTop(queries)
        case .reloadFailed:
            guard let top, event.instances?.contains(top) == true else { return }
            failed = true
            invalidated = false
        case .rotation, .stack:
            if let stack = event.stack, stack.name == stackName {
                let wasThere = stackExists
                stackExists = true
                if stack.top != top || !wasThere {
                    top = stack.top
                    try loadStack(queries)
                }
            } else if event.stackName == stackName {
                stackExists = false
                top = nil
                try loadTop(queries)
            }
        case .widgets:
            try loadKinds(queries)
        }
    }

    // MARK: Rendering

    /// When the line next reads differently with no event: the next change of a live date
    /// the line shows; nil when it shows none that changes, so an idle bar arms no timer.
    func nextChange(after now: Date, timeZone: TimeZone = .current) -> Date? {
        rendered(now: now, timeZone: timeZone).nextChange
    }

    /// The line for the state at `now` (live dates read as they do then, in `timeZone`).
    func line(now: Date, timeZone: TimeZone = .current) -> BarLine {
        rendered(now: now, timeZone: timeZone).line
    }

    /// The line at `now` and when it next reads differently with no event. A template's line
    /// changes with the live dates it prints; the generic text and tooltip print every value
    /// of the content, so they change with any live date it holds.
    func rendered(now: Date, timeZone: TimeZone = .current) -> (line: BarLine, nextChange: Date?) {
        guard stackExists else {
            return (BarLine(text: "", tooltip: escaped("no stack \(stackName)"), classes: ["missing"], alt: ""), nil)
        }
        guard let top else {
            return (BarLine(text: "", tooltip: escaped("stack \(stackName) is empty"), classes: ["empty"], alt: ""), nil)
        }
        guard let kind else {
            return (BarLine(text: "", tooltip: "", classes: ["placeholder"], alt: top), nil)
        }
        let display = kinds[kind] ?? KindDisplay(displayName: kind)
        let kindClass = BarLine.cssClass(kind.split(separator: ".").last.map(String.init) ?? kind)
        guard hasTimeline, let entry else {
            let line = BarLine(
                text: escaped(display.displayName), tooltip: escaped("\(display.displayName): no entry yet"),
                classes: [kindClass, "placeholder"], alt: kind)
            return (line, nil)
        }
        let content = entry.content
        var names: [String: JSONValue] = [
            "instance": .string(top), "kind": .string(kind), "displayName": .string(display.displayName),
            "date": .string(ISO8601.string(from: entry.date)),
        ]
        if let family { names["family"] = .string(family.rawValue) }
        let generic = { LiveDate.nextChange(in: content, after: now) }
        let text =
            display.text?.renderLive(content, extra: names, now: now, timeZone: timeZone)
            ?? (text: escaped(GenericText.text(content, displayName: display.displayName, now: now, timeZone: timeZone)), nextChange: generic())
        let tooltip =
            display.tooltip?.renderLive(content, extra: names, now: now, timeZone: timeZone)
            ?? (text: escaped(GenericText.tooltip(content, displayName: display.displayName, now: now, timeZone: timeZone)), nextChange: generic())
        let classes = [kindClass] + (failed ? ["stale"] : []) + (invalidated ? ["invalidated"] : [])
        let next = [text.nextChange, tooltip.nextChange].compactMap { $0 }.min()
        return (BarLine(text: text.text, tooltip: tooltip.text, classes: classes, alt: kind), next)
    }

    /// The line while the daemon cannot be reached.
    func disconnected(_ reason: String) -> BarLine {
        BarLine(text: "offline", tooltip: escaped("widgetd: \(reason); reconnecting"), classes: ["disconnected"], alt: "disconnected")
    }

    private func escaped(_ text: String) -> String {
        format.isMarkup ? GenericText.markupEscaped(text) : text
    }
}

extension BarView {
    /// A view already showing `entry` of `kind` on top of its stack, as `load` leaves it: for
    /// tests that drive the line over time without a daemon.
    init(stackName: String, format: BarFormat, top: InstanceID, kind: String, display: KindDisplay, entry: WidgetEntry) {
        self.init(stackName: stackName, format: format)
        stackExists = true
        self.top = top
        self.kind = kind
        kinds = [kind: display]
        self.entry = entry
        hasTimeline = true
    }
}

extension BarView.KindDisplay {
    init(displayName: String) {
        self.init(displayName: displayName, text: nil, tooltip: nil)
    }
}
