import Foundation
import Testing
import WidgetCore
import WidgetDisplay
@testable import WidgetCtlCommands

/// `watch --format waybar|eww`: the line of an entry holding a live date over time, driven by
/// the view's own `nextChange` as the adapter's loop is, with the clock passed in: no sleeping.
@Suite("Bar adapter live dates")
struct BarLiveDateTests {
    static let start = ISO8601.date(from: "2026-01-05T08:07:00Z")!
    static let utc = TimeZone(identifier: "UTC")!

    static func view(_ content: String, text: String?, tooltip: String? = nil, format: BarFormat = .waybar) throws -> BarView {
        let escaping: EntryTemplate.Escaping = format.isMarkup ? .html : .none
        let display = BarView.KindDisplay(
            displayName: "Trains", text: try text.map { try EntryTemplate($0, escaping: escaping) },
            tooltip: try tooltip.map { try EntryTemplate($0, escaping: escaping) })
        let entry = WidgetEntry(date: start, content: try WidgetJSON.decoder.decode(JSONValue.self, from: Data(content.utf8)))
        return BarView(stackName: "s", format: format, top: "0000abcd", kind: "test.trains", display: display, entry: entry)
    }

    /// Runs the adapter's loop for `seconds` from `start`: the times it wakes with no event and
    /// the lines it writes (only a line that differs from the last is written).
    static func run(_ view: BarView, for seconds: Double) -> (wakes: Int, lines: [String]) {
        var now = start
        var lines = [view.line(now: now, timeZone: utc).text]
        var wakes = 0
        while let wake = view.nextChange(after: now), wake <= start.addingTimeInterval(seconds) {
            #expect(wake > now)
            now = wake
            wakes += 1
            let text = view.line(now: now, timeZone: utc).text
            if text != lines.last { lines.append(text) }
        }
        return (wakes, lines)
    }

    @Test func aTimerRewritesTheLineEverySecond() throws {
        let view = try Self.view(#"{"departs":{"$date":"2026-01-05T08:12:00Z","style":"timer"}}"#, text: "🚆 {{departs}}")
        let (wakes, lines) = Self.run(view, for: 60)
        print("timer: \(wakes) wake-ups and \(lines.count - 1) rewrites in a minute")
        #expect(wakes == 60 && lines.count == 61)
        #expect(lines.prefix(3) == ["🚆 5:00", "🚆 4:59", "🚆 4:58"])
        #expect(lines.last == "🚆 4:00")
        // Past the date it counts up, as Text(.timer) does, instead of showing a stale "1 min".
        #expect(view.line(now: Self.start.addingTimeInterval(7 * 60), timeZone: Self.utc).text == "🚆 2:00")
    }

    @Test func relativeRewritesOnTheMinuteAndTheGenericTextReadsItToo() throws {
        let view = try Self.view(#"{"text":"Next train","departs":{"$date":"2026-01-05T08:12:00Z","style":"relative"}}"#, text: nil)
        let (wakes, lines) = Self.run(view, for: 600)
        print("relative: \(wakes) wake-ups in ten minutes")
        #expect(wakes == 10 && lines.count == 1)
        #expect(view.line(now: Self.start, timeZone: Self.utc).tooltip == "Trains\ndeparts 5 min\ntext Next train")
        #expect(view.line(now: Self.start.addingTimeInterval(7 * 60), timeZone: Self.utc).tooltip == "Trains\ndeparts 2 min\ntext Next train")
        let templated = try Self.view(#"{"departs":{"$date":"2026-01-05T08:12:00Z","style":"relative"}}"#, text: "in {{departs}}", format: .eww)
        #expect(Self.run(templated, for: 180).lines == ["in 5 min", "in 4 min", "in 3 min", "in 2 min"])
    }

    @Test func noLiveDateNoTimer() throws {
        for content in [#"{"text":"08:12 to Bern"}"#, #"{"day":{"$date":"2026-01-05T08:12:00Z","style":"date"}}"#] {
            let view = try Self.view(content, text: nil)
            #expect(view.nextChange(after: Self.start) == nil, "\(content)")
            #expect(Self.run(view, for: 3600).wakes == 0)
        }
        print("no live date: 0 wake-ups in an hour")
        // Nothing shown: an empty stack arms nothing either.
        #expect(BarView(stackName: "s", format: .waybar).nextChange(after: Self.start) == nil)
    }

    /// What the line shows decides: a live date its templates leave out, or print only as a
    /// time of day, arms nothing; printed in another style, it changes as that style does.
    @Test func aTimerTheLineDoesNotShowArmsNothing() throws {
        let content = #"{"text":"08:12 to Bern","departs":{"$date":"2026-01-05T08:12:00Z","style":"timer"}}"#
        for template in ["{{text}}", "{{text}} at {{time(departs)}}", "{{departs.date}} {{departs.style}}"] {
            // The generic tooltip prints every value, so the tooltip leaves the date out too.
            let quiet = try Self.view(content, text: template, tooltip: "{{displayName}}")
            #expect(quiet.nextChange(after: Self.start) == nil, "\(template)")
            #expect(Self.run(quiet, for: 3600).wakes == 0, "\(template)")
            let generic = try Self.view(content, text: template)
            #expect(generic.nextChange(after: Self.start) == Self.start.addingTimeInterval(1), "the generic tooltip shows the timer")
        }
        let relative = try Self.view(content, text: "{{relative(departs)}}", tooltip: "")
        #expect(Self.run(relative, for: 600).wakes == 10)
        #expect(relative.line(now: Self.start, timeZone: Self.utc).text == "5 min")
        let section = try Self.view(content, text: "{{#departs}}{{text}}{{/departs}}", tooltip: "")
        #expect(section.line(now: Self.start, timeZone: Self.utc).text == "5:00")
        #expect(section.nextChange(after: Self.start, timeZone: Self.utc) == Self.start.addingTimeInterval(1))
    }

    @Test func theClockRunsOnFromTheDaemonsReading() {
        var real = Date(timeIntervalSince1970: 1_000_000)
        let clock = BarClock(offset: Self.start.timeIntervalSince(real), isVirtual: true, realNow: { real })
        #expect(clock.now() == Self.start)
        real.addTimeInterval(5)
        let later = BarClock(offset: clock.offset, isVirtual: true, realNow: { real })
        #expect(later.now() == Self.start.addingTimeInterval(5))
    }
}
