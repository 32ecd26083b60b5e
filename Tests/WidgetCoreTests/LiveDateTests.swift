import Foundation
import Testing
import WidgetCore
import WidgetDisplay

/// Live dates in content (`{"$date": ..., "style": ...}`): the one formatter every host reads,
/// each style before, at and after its date, and when its text next changes.
@Suite("Live dates")
struct LiveDateTests {
    static let date = ISO8601.date(from: "2026-01-05T08:12:00Z")!
    static let utc = TimeZone(identifier: "UTC")!

    static func live(_ style: LiveDate.Style) -> LiveDate { LiveDate(date: date, style: style) }
    static func at(_ seconds: Double) -> Date { date.addingTimeInterval(seconds) }
    static func text(_ style: LiveDate.Style, _ seconds: Double, zone: TimeZone = utc) -> String {
        live(style).text(now: at(seconds), timeZone: zone)
    }

    @Test func theFormIsReadAndAnythingElseIsContent() {
        let value = JSONValue.object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("timer")])
        #expect(LiveDate(value) == Self.live(.timer))
        #expect(LiveDate(.object(["$date": .string("2026-01-05T08:12:00Z")]))?.style == .date)
        #expect(LiveDate(.object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("countdown")])) == nil)
        #expect(LiveDate(.object(["$date": .string("soon"), "style": .string("timer")])) == nil)
        #expect(LiveDate(.object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("timer"), "x": .integer(1)])) == nil)
        #expect(LiveDate(.string("2026-01-05T08:12:00Z")) == nil)
    }

    /// A value meant as a live date but not one is content shown as it is; its problem is named
    /// for `widgetctl push` to warn of.
    @Test func aMalformedLiveDateIsNamedWithWhereItIsAndWhy() throws {
        let content = try WidgetJSON.decoder.decode(JSONValue.self, from: Data(#"""
            {"ok": {"$date": "2026-01-05T08:12:00Z", "style": "timer"}, "plain": {"date": "soon"},
             "legs": [{"at": {"$date": "soon", "style": "timer"}}, {"$date": "2026-01-05T08:12:00Z", "style": "timr"}],
             "extra": {"$date": "2026-01-05T08:12:00Z", "style": "time", "zone": "UTC"},
             "number": {"$date": 5}}
            """#.utf8))
        #expect(LiveDate.problems(in: content) == [
            "content.extra: not a live date, shown as it is: a live date has only $date and style, not zone",
            #"content.legs[0].at: not a live date, shown as it is: $date must be an ISO 8601 date with a zone (2026-01-05T08:12:00Z), got "soon""#,
            #"content.legs[1]: not a live date, shown as it is: style must be one of timer, relative, offset, time, date, got "timr""#,
            "content.number: not a live date, shown as it is: $date must be an ISO 8601 date with a zone (2026-01-05T08:12:00Z), got 5",
        ])
        #expect(LiveDate.problems(in: .object(["leaves": .object(["$date": .string("2026-01-05T08:12:00Z")])])).isEmpty)
        // Shown as it is: the generic text reads the object as any other.
        #expect(LiveDate.resolved(content, now: Self.date, timeZone: Self.utc).objectValue?["number"] == .object(["$date": .integer(5)]))
    }

    @Test func timerCountsDownToTheDateThenUp() {
        #expect(Self.text(.timer, -300) == "5:00")
        #expect(Self.text(.timer, -299.5) == "5:00")
        #expect(Self.text(.timer, -299) == "4:59")
        #expect(Self.text(.timer, -3723) == "1:02:03")
        #expect(Self.text(.timer, -0.5) == "0:01")
        #expect(Self.text(.timer, 0.5) == "0:00")
        #expect(Self.text(.timer, 0) == "0:00")
        #expect(Self.text(.timer, 1) == "0:01")
        #expect(Self.text(.timer, 125) == "2:05")
        #expect(Self.text(.timer, 36000) == "10:00:00")
    }

    @Test func relativeIsTheDistanceToTheMinuteEitherWay() {
        #expect(Self.text(.relative, -150) == "3 min")
        #expect(Self.text(.relative, -120) == "2 min")
        #expect(Self.text(.relative, -3900) == "1 hr, 5 min")
        #expect(Self.text(.relative, -3600) == "1 hr")
        #expect(Self.text(.relative, -30) == "1 min")
        #expect(Self.text(.relative, 59) == "0 min")
        #expect(Self.text(.relative, 0) == "0 min")
        #expect(Self.text(.relative, 120) == "2 min")
        #expect(Self.text(.relative, 2 * 86400 + 7200 + 60) == "2 days, 2 hr")
        #expect(Self.text(.relative, 86400 + 60) == "1 day")
    }

    /// Now less the date, as WidgetKit signs it: a date to come is negative.
    @Test func offsetIsSignedInItsLargestWholeUnit() {
        #expect(Self.text(.offset, -120) == "-2 minutes")
        #expect(Self.text(.offset, -125) == "-2 minutes")
        #expect(Self.text(.offset, -119) == "-1 minute")
        #expect(Self.text(.offset, -60) == "-1 minute")
        #expect(Self.text(.offset, -59) == "-59 seconds")
        #expect(Self.text(.offset, -0.5) == "-1 second")
        #expect(Self.text(.offset, 0) == "0 seconds")
        #expect(Self.text(.offset, 0.5) == "0 seconds")
        #expect(Self.text(.offset, 1) == "+1 second")
        #expect(Self.text(.offset, 45) == "+45 seconds")
        #expect(Self.text(.offset, 180) == "+3 minutes")
        #expect(Self.text(.offset, 3605) == "+1 hour")
        #expect(Self.text(.offset, -7200) == "-2 hours")
        #expect(Self.text(.offset, 3 * 86400 + 7200) == "+3 days")
        #expect(Self.text(.offset, -86400) == "-1 day")
    }

    @Test func timeAndDateReadTheDateInTheZoneWhateverNowIs() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        for seconds in [-86400.0, 0, 86400] {
            #expect(Self.text(.time, seconds) == "08:12")
            #expect(Self.text(.date, seconds) == "5 January 2026")
        }
        #expect(Self.text(.time, 0, zone: tokyo) == "17:12")
        let late = LiveDate(date: ISO8601.date(from: "2026-01-05T20:00:00Z")!, style: .date)
        #expect(late.text(now: Self.date, timeZone: tokyo) == "6 January 2026")
        #expect(Self.live(.timer).text(now: Self.at(-90), timeZone: Self.utc, style: .relative) == "2 min")
    }

    @Test func nextChangeIsTheNextSecondOrMinuteOnTheDatesGrid() {
        let timer = Self.live(.timer)
        #expect(timer.nextChange(after: Self.at(-300)) == Self.at(-299))
        #expect(timer.nextChange(after: Self.at(-299.5)) == Self.at(-299))
        #expect(timer.nextChange(after: Self.at(0)) == Self.at(1))
        #expect(timer.nextChange(after: Self.at(7.25)) == Self.at(8))
        let offset = Self.live(.offset)
        #expect(offset.nextChange(after: Self.at(-0.5)) == Self.at(0))
        #expect(offset.nextChange(after: Self.at(0)) == Self.at(1))
        #expect(offset.nextChange(after: Self.at(-30)) == Self.at(-29))
        #expect(offset.nextChange(after: Self.at(30.5)) == Self.at(31))
        // Past a minute the count changes by the minute: down to the second below the
        // multiple before the date, up at the next multiple after it.
        #expect(offset.nextChange(after: Self.at(-150)) == Self.at(-119))
        #expect(offset.nextChange(after: Self.at(-119)) == Self.at(-59))
        #expect(offset.nextChange(after: Self.at(-60)) == Self.at(-59))
        #expect(offset.nextChange(after: Self.at(59)) == Self.at(60))
        #expect(offset.nextChange(after: Self.at(61)) == Self.at(120))
        #expect(offset.nextChange(after: Self.at(-7200)) == Self.at(-7199))
        #expect(offset.nextChange(after: Self.at(3599.5)) == Self.at(3600))
        #expect(offset.nextChange(after: Self.at(3600)) == Self.at(7200))
        #expect(offset.nextChange(after: Self.at(-2 * 86400)) == Self.at(-2 * 86400 + 1))
        #expect(offset.nextChange(after: Self.at(-86400)) == Self.at(-86399))
        let relative = Self.live(.relative)
        #expect(relative.nextChange(after: Self.at(-150)) == Self.at(-120))
        #expect(relative.nextChange(after: Self.at(-120)) == Self.at(-60))
        #expect(relative.nextChange(after: Self.at(0)) == Self.at(60))
        #expect(relative.nextChange(after: Self.at(61)) == Self.at(120))
        #expect(Self.live(.time).nextChange(after: Self.at(0)) == nil)
        #expect(Self.live(.date).nextChange(after: Self.at(0)) == nil)
        // At each change the text is new, and just before it the old one still reads.
        for style in [LiveDate.Style.timer, .relative, .offset] {
            var now = Self.at(-3 * 3600 - 0.5)
            for _ in 0..<(style == .timer ? 10 : 400) {
                let next = Self.live(style).nextChange(after: now)!
                let before = Self.live(style).text(now: next.addingTimeInterval(-0.001), timeZone: Self.utc)
                #expect(Self.live(style).text(now: now, timeZone: Self.utc) == before, "\(style) at \(now)")
                #expect(Self.live(style).text(now: next, timeZone: Self.utc) != before, "\(style) at \(next)")
                now = next
            }
        }
        // The offset's changes, second by second over the hours either side of the date: the
        // text changes exactly where nextChange says, and nowhere between.
        var next = offset.nextChange(after: Self.at(-3 * 3600))!
        var previous = Self.text(.offset, -3 * 3600)
        for second in (-3 * 3600 + 1)...(3 * 3600) {
            let now = Self.at(Double(second))
            let text = offset.text(now: now, timeZone: Self.utc)
            #expect((text != previous) == (now == next), "offset at \(second) s: \(previous) then \(text), next change \(next)")
            if now == next { next = offset.nextChange(after: now)! }
            previous = text
        }
    }

    @Test func contentIsResolvedAndItsNextChangeIsTheEarliest() {
        let content = JSONValue.object([
            "title": .string("Next train"),
            "departs": .object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("relative")]),
            "legs": .array([.object(["at": .object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("timer")])])]),
        ])
        let now = Self.at(-150.5)
        #expect(LiveDate.resolved(content, now: now, timeZone: Self.utc) == .object([
            "title": .string("Next train"), "departs": .string("3 min"), "legs": .array([.object(["at": .string("2:31")])]),
        ]))
        #expect(LiveDate.nextChange(in: content, after: now) == Self.at(-150))
        #expect(LiveDate.contains(content))
        #expect(LiveDate.nextChange(in: .object(["text": .string("plain")]), after: now) == nil)
        #expect(LiveDate.nextChange(in: .object(["day": .object(["$date": .string("2026-01-05T08:12:00Z")])]), after: now) == nil)
        #expect(GenericText.text(content, displayName: "Trains", now: now, timeZone: Self.utc) == "Next train")
        #expect(GenericText.tooltip(content, displayName: "Trains", now: now, timeZone: Self.utc) == "Trains\ndeparts 3 min\ntitle Next train")
    }

    @Test func templatesReadTheTextAndHaveAHelperPerStyle() throws {
        let content = JSONValue.object([
            "departs": .object(["$date": .string("2026-01-05T08:12:00Z"), "style": .string("timer")]), "note": .string("<b>"),
        ])
        let now = Self.at(-90)
        let template = try EntryTemplate(
            "{{departs}} · {{relative(departs)}} · {{time(departs)}} · {{departs.date}} {{departs.style}} {{note}}", escaping: .none)
        #expect(template.render(content, now: now, timeZone: Self.utc) == "1:30 · 2 min · 08:12 · 2026-01-05T08:12:00Z timer <b>")
        // The web host's markup: the element the page keeps counting, the rest escaped as ever.
        let html = try EntryTemplate("<p>{{departs}} {{offset(departs)}} {{note}}</p>").render(content, now: now, timeZone: Self.utc, markup: true)
        #expect(html == #"<p><time class="live-date" datetime="2026-01-05T08:12:00Z" data-live-style="timer">1:30</time> "#
            + #"<time class="live-date" datetime="2026-01-05T08:12:00Z" data-live-style="offset">-1 minute</time> &lt;b&gt;</p>"#)
        // A marker forged in content is never markup of its own.
        let forged = JSONValue.object(["note": .string("\u{E000}<script>\u{E001}x")])
        #expect(try EntryTemplate("{{note}}").render(forged, markup: true) == "x")
    }
}
