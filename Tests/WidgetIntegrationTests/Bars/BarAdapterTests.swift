import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// `widgetctl watch --format waybar|eww --stack NAME`, the bar modules,
    /// against the real daemon on the virtual clock. Every line is read with a deadline.
    @Suite struct BarAdapter {
        /// A push-only kind, with bar templates when given.
        static func kind(_ fixture: DaemonFixture, _ kind: String, name: String, text: String? = nil, tooltip: String? = nil) throws {
            var object: [String: Any] = ["kind": kind, "displayName": name, "supportedFamilies": ["systemSmall"]]
            var templates: [String: Any] = [:]
            if let text { templates["text"] = text }
            if let tooltip { templates["tooltip"] = tooltip }
            if !templates.isEmpty { object["templates"] = templates }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try data.write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/" + kind + ".json"))
        }

        /// Pushes entries (date, content JSON, relevance score).
        static func push(_ fixture: DaemonFixture, _ id: String, _ entries: [(String, String, Double?)]) {
            let items = entries.map { date, content, score in
                let relevance = score.map { #","relevance":{"score":\#($0)}"# } ?? ""
                return #"{"date":"\#(date)","content":\#(content)\#(relevance)}"#
            }
            let result = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[\#(items.joined(separator: ","))],"policy":"never"}"#)
            #expect(result.status == 0, "\(result.stderr)")
        }

        static func stack(_ fixture: DaemonFixture, _ name: String, _ ids: String...) {
            #expect(fixture.ctl("stack", "create", name).status == 0)
            #expect(fixture.ctl(["stack", "add", name] + ids).status == 0)
        }

        static func classes(_ line: [String: Any]) -> [String] { line["class"] as? [String] ?? [] }

        @Test func aWaybarLineHasTheFourKeysTheTemplateAndPangoEscaping() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, "test.bar.clock", name: "Clock", text: "{{time}} {{note}}", tooltip: "{{displayName}} at {{time}}")
            try fixture.start()
            let watch = try BarWatch(fixture, format: "waybar", stack: "top")
            // Before the stack exists: an empty line saying so, which Waybar hides.
            let missing = try watch.next("the stack is missing")
            #expect(missing["text"] as? String == "" && Self.classes(missing) == ["missing"])

            let id = try fixture.add("test.bar.clock")
            Self.stack(fixture, "top", id)
            let placeholder = try watch.next("a placeholder before any timeline") { Self.classes($0).contains("placeholder") }
            #expect(placeholder["text"] as? String == "Clock")

            Self.push(fixture, id, [("2026-01-05T08:00:00Z", #"{"time":"08:00","note":"a <b> & \"c\""}"#, nil)])
            let line = try watch.next("the pushed entry") { ($0["text"] as? String ?? "").hasPrefix("08:00") }
            #expect(Set(line.keys) == ["text", "tooltip", "class", "alt"])
            #expect(line["text"] as? String == "08:00 a &lt;b&gt; &amp; &quot;c&quot;")
            #expect(line["tooltip"] as? String == "Clock at 08:00")
            #expect(Self.classes(line) == ["clock"])
            #expect(line["alt"] as? String == "test.bar.clock")
            // One line per change: every line written so far is a JSON object of its own.
            for raw in watch.rawLines {
                #expect((try? JSONSerialization.jsonObject(with: Data(raw.utf8))) is [String: Any], "\(raw)")
            }
        }

        @Test func aLineWhenAnEntryDatePassesAndWhenTheStackRotates() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, "test.bar.note", name: "Note", text: "{{text}}")
            try fixture.start(clock: "2026-01-05T09:00:00Z")
            let a = try fixture.add("test.bar.note")
            let b = try fixture.add("test.bar.note")
            Self.stack(fixture, "s", a, b)
            // Relevance ranks each instance's score among its own: at 09:30 A falls below its
            // past and B rises above its own, so B goes on top.
            Self.push(fixture, a, [
                ("2026-01-05T09:00:00Z", #"{"text":"alpha"}"#, 2), ("2026-01-05T09:01:00Z", #"{"text":"alpha two"}"#, 2),
                ("2026-01-05T09:30:00Z", #"{"text":"alpha late"}"#, 1),
            ])
            Self.push(fixture, b, [("2026-01-05T09:00:00Z", #"{"text":"beta"}"#, 1), ("2026-01-05T09:30:00Z", #"{"text":"beta up"}"#, 3000)])
            #expect(fixture.ctl("--json", "stack", "show", "s").object["top"] as? String == a)
            let watch = try BarWatch(fixture, format: "waybar", stack: "s")
            try watch.next("A's first entry") { $0["text"] as? String == "alpha" }

            // A's second entry's date passes: the daemon's entryChange event drives the line.
            #expect(fixture.ctl("clock", "advance", "1m").status == 0)
            try watch.next("A's second entry, at 09:01") { $0["text"] as? String == "alpha two" }

            // B's relevance leaps at 09:30: the stack rotates to B, and the line shows B.
            #expect(fixture.ctl("clock", "advance", "45m").status == 0)
            #expect(fixture.ctl("--json", "stack", "show", "s").object["top"] as? String == b)
            let rotated = try watch.next("B on top after the rotation") { $0["text"] as? String == "beta up" }
            #expect(rotated["alt"] as? String == "test.bar.note")

            // Swiped back by hand, then the top removed: the stack's new top, then an empty stack.
            #expect(fixture.ctl("stack", "swipe", "s", a).status == 0)
            try watch.next("A again after the swipe") { $0["text"] as? String == "alpha late" }
            #expect(fixture.ctl("remove", a).status == 0)
            try watch.next("B once A is removed") { $0["text"] as? String == "beta up" }
            #expect(fixture.ctl("remove", b).status == 0)
            try watch.next("an empty stack") { Self.classes($0) == ["empty"] && $0["text"] as? String == "" }
        }

        @Test func aKindWithoutTemplateGetsTheGenericText() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, "test.bar.plain", name: "Plain <Kind>")
            try fixture.start()
            let titled = try fixture.add("test.bar.plain")
            let bare = try fixture.add("test.bar.plain")
            Self.stack(fixture, "t", titled)
            Self.stack(fixture, "b", bare)
            Self.push(fixture, titled, [("2026-01-05T08:00:00Z", #"{"title":"Hello & bye","x":1}"#, nil)])
            Self.push(fixture, bare, [("2026-01-05T08:00:00Z", #"{"items":[1,2]}"#, nil)])

            let watch = try BarWatch(fixture, format: "waybar", stack: "t")
            let line = try watch.next("the title as the text") { $0["text"] as? String == "Hello &amp; bye" }
            #expect(line["tooltip"] as? String == "Plain &lt;Kind&gt;\ntitle Hello &amp; bye\nx 1")
            #expect(Self.classes(line) == ["plain"])
            // Nothing plain in the content: the kind's display name.
            let other = try BarWatch(fixture, format: "waybar", stack: "b")
            try other.next("the display name as the text") { $0["text"] as? String == "Plain &lt;Kind&gt;" }
        }

        @Test func ewwLinesArePlainTextWithOneClassString() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, "test.bar.weather", name: "Weather", text: "{{temp}}° {{sky}}")
            try fixture.start()
            let id = try fixture.add("test.bar.weather")
            Self.stack(fixture, "w", id)
            Self.push(fixture, id, [("2026-01-05T08:00:00Z", #"{"temp":21,"sky":"sun & <clouds>"}"#, nil)])
            let watch = try BarWatch(fixture, format: "eww", stack: "w")
            let line = try watch.next("the weather") { ($0["text"] as? String ?? "").hasPrefix("21") }
            #expect(line["text"] as? String == "21° sun & <clouds>")
            #expect(line["class"] as? String == "weather")
            #expect(line["tooltip"] as? String == "Weather\nsky sun & <clouds>\ntemp 21")
        }

        @Test func theModuleSaysWhenTheDaemonGoesAndComesBack() throws {
            let fixture = try DaemonFixture()
            try Self.kind(fixture, "test.bar.note", name: "Note", text: "{{text}}")
            try fixture.start()
            let id = try fixture.add("test.bar.note")
            Self.stack(fixture, "s", id)
            Self.push(fixture, id, [("2026-01-05T08:00:00Z", #"{"text":"before"}"#, nil)])
            let watch = try BarWatch(fixture, format: "waybar", stack: "s")
            try watch.next("the entry") { $0["text"] as? String == "before" }

            #expect(fixture.stop() == 0)
            let gone = try watch.next("the disconnected line") { Self.classes($0) == ["disconnected"] }
            #expect(gone["text"] as? String == "offline")
            #expect(watch.isRunning)

            // Its state kept, the daemon comes back; the module finds it without being restarted.
            try fixture.start()
            try watch.next("the entry once the daemon is back", within: 60) { $0["text"] as? String == "before" }
            Self.push(fixture, id, [("2026-01-05T08:00:00Z", #"{"text":"after"}"#, nil)])
            try watch.next("a change after reconnecting") { $0["text"] as? String == "after" }
        }

        @Test func badOptionsAreUsageErrors() throws {
            let fixture = try DaemonFixture()
            try fixture.start()
            let noStack = fixture.ctl("watch", "--format", "waybar")
            #expect(noStack.status == 2 && noStack.stderr.contains("--format waybar needs --stack NAME"), "\(noStack.stderr)")
            let unknown = fixture.ctl("watch", "--format", "polybar", "--stack", "s")
            #expect(unknown.status == 2, "\(unknown.stderr)")
            #expect(fixture.ctl("watch", "--stack", "s").status == 2)
        }
    }
}
