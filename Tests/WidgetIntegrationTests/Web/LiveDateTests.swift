import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Issue 25, item 6: a content value `{"$date": ..., "style": ...}` read as the time goes
    /// by, by `widgetctl`, the bar adapters and the web page, against the real daemon on the
    /// virtual clock. The daemon stores and sends it as any other content.
    @Suite struct LiveDates {
        static let start = "2026-01-05T08:00:00Z"
        static let train = #"{"text":"Next train","departs":{"$date":"2026-01-05T08:12:00Z","style":"relative"},"#
            + #""leaves":{"$date":"2026-01-05T08:12:00Z","style":"timer"}}"#

        /// A push-only kind; `html` names a template file written beside it.
        static func kind(_ fixture: DaemonFixture, text: String? = nil, html: String? = nil) throws {
            var templates: [String] = []
            if let text { templates.append(#""text": "\#(text)""#) }
            if let html {
                try html.write(toFile: fixture.widgetsDirectory + "/trains.mustache", atomically: true, encoding: .utf8)
                templates.append(#""html": "trains.mustache""#)
            }
            let extra = templates.isEmpty ? "" : #", "templates": {\#(templates.joined(separator: ", "))}"#
            try #"{"kind": "test.trains", "displayName": "Trains", "supportedFamilies": ["systemSmall"]\#(extra)}"#
                .write(toFile: fixture.widgetsDirectory + "/trains.json", atomically: true, encoding: .utf8)
        }

        static func push(_ fixture: DaemonFixture, _ id: String, _ content: String) {
            let result = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[{"date":"\#(start)","content":\#(content)}],"policy":"never"}"#)
            #expect(result.status == 0, "\(result.stderr)")
        }

        @Test func widgetctlTimelineAndListReadTheTextAtTheDaemonsNow() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture)
            try fixture.start(clock: Self.start)
            let id = try fixture.add("test.trains")
            Self.push(fixture, id, Self.train)
            let timeline = fixture.ctl("timeline", id).stdout
            #expect(timeline.contains(#"{"departs":"12 min","leaves":"12:00","text":"Next train"}"#), "\(timeline)")
            #expect(fixture.ctl("list").stdout.contains(#"{"departs":"12 min","leaves":"12:00","t…"#), "\(fixture.ctl("list").stdout)")

            #expect(fixture.ctl("clock", "advance", "270s").status == 0)
            #expect(fixture.ctl("timeline", id).stdout.contains(#"{"departs":"8 min","leaves":"7:30","#))
            // Past the date a timer counts up: the train left two minutes ago, and it says so.
            #expect(fixture.ctl("clock", "advance", "570s").status == 0)
            let after = fixture.ctl("timeline", id).stdout
            #expect(after.contains(#"{"departs":"2 min","leaves":"2:00","#), "\(after)")
            // --json is the content as stored.
            let json = fixture.ctl("--json", "timeline", id).object
            let content = (json["entries"] as? [[String: Any]])?.first?["content"] as? [String: Any]
            #expect((content?["leaves"] as? [String: Any])?["$date"] as? String == "2026-01-05T08:12:00Z")
        }

        @Test func theBarLineReadsTheLiveDate() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, text: "🚆 {{departs}} ({{time(leaves)}})")
            try fixture.start(clock: Self.start)
            let id = try fixture.add("test.trains")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", id).status == 0)
            Self.push(fixture, id, Self.train)
            let watch = try BarWatch(fixture, format: "eww", stack: "s")
            // Relative to the minute: it reads 12 min for a whole minute of the bar's time.
            let line = try watch.next("the live text") { ($0["text"] as? String ?? "").hasPrefix("🚆 1") }
            #expect(["🚆 12 min (08:12)", "🚆 11 min (08:12)"].contains(line["text"] as? String ?? ""), "\(line)")
        }

        @Test func theWebPageCountsDownAndArmsNoTimerWithoutALiveDate() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, html: #"<div class="t-train">{{text}} <b>{{leaves}}</b> <i>{{offset(departs)}}</i></div>"#)
            try fixture.start(clock: Self.start)
            let id = try fixture.add("test.trains")
            Self.push(fixture, id, Self.train)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            let timer = "document.querySelector('.t-train b time.live-date')?.textContent ?? null"
            let first = try page.waitFor("the timer drawn from the template", timer) { ($0 as? String)?.hasPrefix("1") == true } as? String
            #expect(["12:00", "11:59", "11:58"].contains(first ?? ""), "\(first ?? "nil")")
            #expect(try page.evaluate("document.querySelector('.t-train b time').dataset.liveStyle") as? String == "timer")
            // The page's own clock moves it on: within a few seconds of the browser's time the
            // text is another, counting down.
            let later = try page.waitFor("the timer counting down in the page", within: 5, timer) { ($0 as? String ?? first) != first } as? String
            #expect((later ?? "") < (first ?? ""), "\(first ?? "nil") then \(later ?? "nil")")
            #expect((try page.evaluate("document.querySelector('.t-train i time').textContent") as? String)?.hasPrefix("+11 min") == true)
            #expect(try page.evaluate("live.timer !== null") as? Bool == true)

            // The page's formatter reads as LiveDate does (LiveDateTests has the same cases).
            let cases: [(Double, String, String)] = [
                (-300, "timer", "5:00"), (-299.5, "timer", "5:00"), (-3723, "timer", "1:02:03"), (-0.5, "timer", "0:01"),
                (0.5, "timer", "0:00"), (125, "timer", "2:05"), (-150, "relative", "3 min"), (-3900, "relative", "1 hr, 5 min"),
                (59, "relative", "0 min"), (2 * 86400 + 7260, "relative", "2 days, 2 hr"), (86460, "relative", "1 day"),
                (-125, "offset", "+2 min, 5 sec"), (0, "offset", "0 sec"), (180, "offset", "-3 min"), (3605, "offset", "-1 hr"),
            ]
            for (seconds, style, expected) in cases {
                let text = try page.evaluate("liveText(Date.parse('2026-01-05T08:12:00Z'), '\(style)', Date.parse('2026-01-05T08:12:00Z') + \(seconds * 1000))")
                #expect(text as? String == expected, "\(style) at \(seconds) s")
            }

            // An entry without a live date: nothing is counted and no timer is left.
            Self.push(fixture, id, #"{"text":"No trains","leaves":"tomorrow","departs":"-"}"#)
            try page.waitFor("the plain entry", "document.querySelector('.t-train b')?.textContent ?? null") { $0 as? String == "tomorrow" }
            #expect(try page.evaluate("live.timer === null") as? Bool == true)
        }
    }
}
