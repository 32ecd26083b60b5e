import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Context clues with the real widgetd and widgetctl, driven by a host's `context.set`: an
    /// entry whose clue begins to hold rotates its stack to the top in the same step, `explain`
    /// names the clue, and a kind may name only the clues its descriptor declares. (The clues the
    /// session's D-Bus sources feed are the session watchers' suites.)
    @Suite struct ContextClues {
        /// Push-only kinds: `test.plain` declares no clues, `test.kitchen` the host's values and
        /// the location. A stack `home` holds one of each, the plain one first.
        func setUp(_ fixture: DaemonFixture) throws -> (plain: String, kitchen: String) {
            for (kind, clues) in [("test.plain", [String]()), ("test.kitchen", ["context", "location"])] {
                let object: [String: Any] = ["kind": kind, "supportedFamilies": ["systemSmall"], "clues": clues]
                try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/\(kind).json"))
            }
            let config = fixture.directory + "/widgetd.conf"
            try "[rotation]\nmin-dwell = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            let plain = try fixture.add("test.plain")
            let kitchen = try fixture.add("test.kitchen")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", plain, kitchen).status == 0)
            return (plain, kitchen)
        }

        func timeline(_ relevance: String) -> String {
            #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"n":1},"relevance":\#(relevance)}],"policy":"never"}"#
        }

        func top(_ fixture: DaemonFixture) -> String? {
            fixture.ctl("--json", "stack", "show", "home").object["top"] as? String
        }

        func candidate(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            let candidates = fixture.ctl("--json", "explain", "home").object["candidates"] as? [[String: Any]] ?? []
            return candidates.first { $0["instance"] as? String == id } ?? [:]
        }

        @Test func aStackWhoseHostClueBeginsToHoldRotatesAndExplainNamesTheClue() throws {
            let fixture = try DaemonFixture()
            let (plain, kitchen) = try setUp(fixture)
            let pushed = fixture.ctl("push", kitchen, "-", stdin: timeline(#"{"score":5,"when":[{"context":{"room":"kitchen"}}]}"#))
            #expect(pushed.status == 0, "\(pushed.stderr)")
            #expect(top(fixture) == plain)
            #expect(candidate(fixture, kitchen)["relevance"] as? Double == 0)
            #expect(candidate(fixture, kitchen)["clue"] is NSNull, "clue is null while none holds")

            let set = fixture.ctl("--json", "context", "set", "room=kitchen")
            #expect(set.status == 0, "\(set.stderr)")
            let host = set.object["host"] as? [[String: Any]] ?? []
            #expect(host.first?["name"] as? String == "room" && host.first?["value"] as? String == "kitchen")
            // Ranked again in the step that took the value: the answer comes after it.
            #expect(top(fixture) == kitchen)
            let clue = candidate(fixture, kitchen)["clue"] as? [String: Any]
            #expect((clue?["context"] as? [String: String]) == ["room": "kitchen"])
            let why = fixture.ctl("--json", "explain", "home").object["why"] as? String ?? ""
            #expect(why.contains("clue holds: room=kitchen"), "\(why)")
            let decisions = fixture.ctl("--json", "log", "--stack", "home").array
            let rotation = decisions.last { $0["to"] as? String == kitchen }
            #expect(rotation?["reason"] as? String == "betterCandidate")
            let logged = (rotation?["candidates"] as? [[String: Any]])?.first { $0["instance"] as? String == kitchen }
            #expect(((logged?["clue"] as? [String: Any])?["context"] as? [String: String]) == ["room": "kitchen"])
            let text = fixture.ctl("explain", "home")
            #expect(text.stdout.contains("room=kitchen"), "\(text.stdout)")

            // Another value: the clue no longer holds, and the stack goes back.
            #expect(fixture.ctl("context", "set", "room=hall").status == 0)
            #expect(top(fixture) == plain)
            #expect(fixture.ctl("context", "set", "room=kitchen").status == 0)
            #expect(top(fixture) == kitchen)
            #expect(fixture.ctl("context", "set", "--unset", "room").status == 0)
            #expect(top(fixture) == plain)
            #expect((fixture.ctl("--json", "context").object["host"] as? [Any])?.isEmpty == true)
        }

        /// The clues are stored with the timeline; the context is not: after a restart the host
        /// reports again, and the stack follows.
        @Test func cluesOutliveARestartAndTheContextIsReportedAgain() throws {
            let fixture = try DaemonFixture()
            let (plain, kitchen) = try setUp(fixture)
            #expect(fixture.ctl("push", kitchen, "-", stdin: timeline(#"{"score":5,"when":[{"context":{"room":"kitchen"}}]}"#)).status == 0)
            #expect(fixture.ctl("context", "set", "room=kitchen").status == 0)
            #expect(top(fixture) == kitchen)
            #expect(fixture.stop() == 0)
            try fixture.start(clock: "2026-01-05T08:30:00Z", arguments: ["--config", fixture.directory + "/widgetd.conf"])
            #expect((fixture.ctl("--json", "context").object["host"] as? [Any])?.isEmpty == true, "the context is not stored")
            #expect(fixture.ctl("context", "set", "room=hall").status == 0)
            #expect(top(fixture) == plain)
            #expect(fixture.ctl("context", "set", "room=kitchen").status == 0)
            #expect(top(fixture) == kitchen)
            let clue = candidate(fixture, kitchen)["clue"] as? [String: Any]
            #expect((clue?["context"] as? [String: String]) == ["room": "kitchen"])
        }

        @Test func aTimelineNamingAnUndeclaredClueIsRefused() throws {
            let fixture = try DaemonFixture()
            let (plain, _) = try setUp(fixture)
            let pushed = fixture.ctl("push", plain, "-", stdin: timeline(#"{"score":5,"when":[{"context":{"room":"kitchen"}}]}"#))
            #expect(pushed.status == 1)
            #expect(pushed.stderr.contains("does not declare the clue 'context'"), "\(pushed.stderr)")
            let located = fixture.ctl(
                "push", plain, "-", stdin: timeline(#"{"when":[{"location":{"latitude":52.52,"longitude":13.405,"radius":300}}]}"#))
            #expect(located.status == 1)
            #expect(located.stderr.contains("does not declare the clue 'location'"), "\(located.stderr)")
        }

        @Test func contextShowsTheSourcesAndALocationOnlyAsUnknownOrKnown() throws {
            let fixture = try DaemonFixture()
            let (_, kitchen) = try setUp(fixture)
            let region = #"{"when":[{"location":{"latitude":52.5251,"longitude":13.3694,"radius":300}}]}"#
            #expect(fixture.ctl("push", kitchen, "-", stdin: timeline(region)).status == 0)
            let context = fixture.ctl("--json", "context")
            #expect(context.status == 0, "\(context.stderr)")
            let values = context.object["values"] as? [[String: Any]] ?? []
            #expect(values.first { $0["name"] as? String == "location" }?["value"] as? String == "unknown")
            let sources = (context.object["sources"] as? [[String: Any]] ?? []).compactMap { $0["source"] as? String }
            #expect(sources == ["logind", "upower", "power-profiles", "geoclue", "bluez"])
            let text = fixture.ctl("context")
            #expect(text.status == 0 && text.stdout.contains("geoclue") && text.stdout.contains("location"))
            // The region is the provider's to give; where the machine is never reaches the log.
            #expect(!fixture.log().contains("13.3694"))
        }
    }
}
