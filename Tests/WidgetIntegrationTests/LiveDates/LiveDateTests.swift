import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// A content value `{"$date": ..., "style": ...}` read as the time goes
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

        /// A daemon at `start` with one train widget, its bar text `text`, alone in stack `s` and
        /// showing `train`.
        static func trainInStack(text: String) throws -> (DaemonFixture, String) {
            let fixture = try DaemonFixture()
            try kind(fixture, text: text)
            try fixture.start(clock: start)
            let id = try fixture.add("test.trains")
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            #expect(fixture.ctl("stack", "add", "s", id).status == 0)
            push(fixture, id, train)
            return (fixture, id)
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

            // A $date value that is not a live date is installed and shown as it is, and push
            // says where it is and why.
            let typo = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[{"date":"\#(Self.start)","content":{"leaves":{"$date":"2026-01-05T08:12:00Z","style":"timr"}}}],"policy":"never"}"#)
            #expect(typo.status == 0, "\(typo.stderr)")
            #expect(typo.stderr.contains(#"widgetctl: warning: entries[0].content.leaves: not a live date, shown as it is: style must be one of timer, relative, offset, time, date, got "timr""#), "\(typo.stderr)")
            let shown = fixture.ctl("timeline", id).stdout
            #expect(shown.contains(#"{"leaves":{"$date":"2026-01-05T08:12:00Z","style":"timr"}}"#), "\(shown)")
            #expect(fixture.ctl(["push", id, "-"], stdin: #"{"entries":[{"date":"\#(Self.start)","content":\#(Self.train)}],"policy":"never"}"#).stderr.isEmpty)
        }

        @Test func theBarLineReadsTheLiveDate() throws {
            let (fixture, _) = try Self.trainInStack(text: "🚆 {{departs}} ({{time(leaves)}})")
            let watch = try BarWatch(fixture, format: "eww", stack: "s")
            // Relative to the minute: it reads 12 min for a whole minute of the bar's time.
            let line = try watch.next("the live text") { ($0["text"] as? String ?? "").hasPrefix("🚆 1") }
            #expect(["🚆 12 min (08:12)", "🚆 11 min (08:12)"].contains(line["text"] as? String ?? ""), "\(line)")
        }

        /// Waybar's line follows a timer second by second while the entry shown holds one, from
        /// the daemon's (virtual) time running on; once the entry shown holds none that changes,
        /// the module writes nothing more and its process does not wake.
        @Test func theWaybarLineTicksOnlyWhileATimerIsShown() throws {
            let (fixture, id) = try Self.trainInStack(text: "{{text}} {{leaves}}")
            let watch = try BarWatch(fixture, format: "waybar", stack: "s")
            // Three lines in a row, each the timer further down (a second each, unless the
            // machine held the module longer).
            func seconds(_ line: [String: Any]) -> Int? {
                let text = line["text"] as? String ?? ""
                guard text.hasPrefix("Next train "), let time = text.split(separator: " ").last else { return nil }
                let parts = time.split(separator: ":").compactMap { Int($0) }
                return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
            }
            var last = try seconds(watch.next("the timer's first line") { seconds($0) != nil })
            #expect((718...720).contains(last ?? 0), "\(watch.rawLines)")
            for tick in 1...3 {
                let line = try watch.next("the timer's line after tick \(tick)", within: 10)
                #expect((seconds(line) ?? .max) < (last ?? 0), "tick \(tick): \(line) after \(last ?? -1) s")
                last = seconds(line)
            }

            // No live date that changes: a time of day (which reads the same all day) and text.
            Self.push(fixture, id, #"{"text":"No train","leaves":{"$date":"2026-01-05T08:12:00Z","style":"time"}}"#)
            try watch.next("the entry without a timer") { $0["text"] as? String == "No train \(Self.localTime("2026-01-05T08:12:00Z"))" }
            let lines = watch.rawLines.count
            let before = try ThreadSwitches.settled(watch.processIdentifier)
            usleep(3_000_000)
            let woken = before.wakeUps(until: ThreadSwitches(watch.processIdentifier))
            print("live dates: the waybar module wrote \(lines) lines while counting; with no timer shown it woke \(woken.count) thread(s) in 3 s")
            #expect(woken.isEmpty, "the bar module woke with no live date shown: \(woken)")
            #expect(watch.rawLines.count == lines, "lines written with nothing changing: \(watch.rawLines.suffix(3))")
            #expect(watch.isRunning)
        }

        /// `08:12` as the host's zone reads the instant, as `LiveDate`'s `time` style writes it.
        static func localTime(_ iso: String) -> String {
            let parts = Calendar.current.dateComponents([.hour, .minute], from: ISO8601DateFormatter().date(from: iso)!)
            return String(format: "%02d:%02d", parts.hour!, parts.minute!)
        }

        @Test func theWebPageCountsDownAndArmsNoTimerWithoutALiveDate() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, html: #"<div class="t-train">{{text}} <b>{{leaves}}</b> <i>{{offset(departs)}}</i></div>"#)
            try fixture.start(clock: Self.start)
            let id = try fixture.add("test.trains")
            Self.push(fixture, id, Self.train)
            let host = try WebHostProcess(fixture)
            // Served with the text at the daemon's now, in the element the page counts on: a
            // browser that runs no script shows it too.
            let timerElement = #"<b><time class="live-date" datetime="2026-01-05T08:12:00Z" data-live-style="timer">12:00</time></b>"#
            let offsetElement = #"<i><time class="live-date" datetime="2026-01-05T08:12:00Z" data-live-style="offset">-12 minutes</time></i>"#
            let served = try StreamConnection.get(port: host.port, "/")
            #expect(served.contains(timerElement) && served.contains(offsetElement), "GET / without the live dates:\n\(served)")
            let browser = try Chromium(url: "about:blank", directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            let still = try WebHostFirstPaint.withoutScript(page, host.url)
            #expect(still.contains(timerElement), "without JavaScript:\n\(still)")
            #expect(try page.evaluate("typeof liveText") as? String == "undefined")

            // Then as every browser loads it: the page's script counts on.
            try page.command("Page.navigate", ["url": host.url])
            try page.waitFor("the page's script", "typeof liveText === 'function' && document.readyState === 'complete'") { $0 as? Bool == true }
            let timer = "document.querySelector('.t-train b time.live-date')?.textContent ?? null"
            let first = try page.waitFor("the timer drawn from the template", timer) { ($0 as? String)?.hasPrefix("1") == true } as? String
            #expect(["12:00", "11:59", "11:58"].contains(first ?? ""), "\(first ?? "nil")")
            #expect(try page.evaluate("document.querySelector('.t-train b time').dataset.liveStyle") as? String == "timer")
            // The page's own clock moves it on: within a few seconds of the browser's time the
            // text is another, counting down.
            let later = try page.waitFor("the timer counting down in the page", within: 5, timer) { ($0 as? String ?? first) != first } as? String
            #expect((later ?? "") < (first ?? ""), "\(first ?? "nil") then \(later ?? "nil")")
            #expect((try page.evaluate("document.querySelector('.t-train i time').textContent") as? String)?.hasPrefix("-11 minutes") == true)
            #expect(try page.evaluate("live.timer !== null") as? Bool == true)

            // The page's formatter reads as LiveDate does (LiveDateTests has the same cases).
            let cases: [(Double, String, String)] = [
                (-300, "timer", "5:00"), (-299.5, "timer", "5:00"), (-3723, "timer", "1:02:03"), (-0.5, "timer", "0:01"),
                (0.5, "timer", "0:00"), (125, "timer", "2:05"), (-150, "relative", "3 min"), (-3900, "relative", "1 hr, 5 min"),
                (59, "relative", "0 min"), (2 * 86400 + 7260, "relative", "2 days, 2 hr"), (86460, "relative", "1 day"),
                (-125, "offset", "-2 minutes"), (-119, "offset", "-1 minute"), (-0.5, "offset", "-1 second"), (0, "offset", "0 seconds"),
                (180, "offset", "+3 minutes"), (3605, "offset", "+1 hour"), (3 * 86400 + 7200, "offset", "+3 days"),
            ]
            for (seconds, style, expected) in cases {
                let text = try page.evaluate("liveText(Date.parse('2026-01-05T08:12:00Z'), '\(style)', Date.parse('2026-01-05T08:12:00Z') + \(seconds * 1000))")
                #expect(text as? String == expected, "\(style) at \(seconds) s")
            }
            // And its next change as LiveDate.nextChange (seconds from the date).
            let changes: [(Double, String, Double)] = [
                (-299.5, "timer", -299), (7.25, "timer", 8), (-150, "relative", -120), (61, "relative", 120), (-0.5, "offset", 0),
                (-150, "offset", -119), (-60, "offset", -59), (61, "offset", 120), (-7200, "offset", -7199), (3600, "offset", 7200),
            ]
            for (seconds, style, expected) in changes {
                let next = try page.evaluate(
                    "(liveNextChange(Date.parse('2026-01-05T08:12:00Z'), '\(style)', Date.parse('2026-01-05T08:12:00Z') + \(seconds * 1000)) - Date.parse('2026-01-05T08:12:00Z')) / 1000")
                #expect((next as? NSNumber)?.doubleValue == expected, "\(style) after \(seconds) s: \(next ?? "nil")")
            }

            // An entry without a live date: nothing is counted and no timer is left.
            Self.push(fixture, id, #"{"text":"No trains","leaves":"tomorrow","departs":"-"}"#)
            try page.waitFor("the plain entry", "document.querySelector('.t-train b')?.textContent ?? null") { $0 as? String == "tomorrow" }
            #expect(try page.evaluate("live.timer === null") as? Bool == true)
        }
    }
}
