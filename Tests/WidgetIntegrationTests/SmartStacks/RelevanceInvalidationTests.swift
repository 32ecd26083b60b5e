import Foundation
import Testing
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// `invalidateRelevance(ofKind:)`: providers give fresh relevance through their `relevance`
    /// verb, the content stays, the stacks are ranked again, and each instance is asked at most
    /// `relevance-per-hour` times an hour.
    @Suite struct RelevanceInvalidation {
        /// Two kinds served by one script: the timeline's score and the fresh score of each are
        /// read from files the test writes.
        func setUp(_ fixture: DaemonFixture, perHour: Int = 6) throws -> (a: String, b: String) {
            try fixture.provider("scored", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                case "$2" in
                timeline) printf '{"entries":[{"date":"%s","content":{"name":"%s"},"relevance":{"score":%s}}],"policy":"never"}\\n' "$now" "$1" "$(cat "\(fixture.directory)/timeline-$1")" ;;
                relevance) printf '{"relevance":[{"date":"%s","score":%s,"duration":3600}]}\\n' "$now" "$(cat "\(fixture.directory)/fresh-$1")" ;;
                *) exit 2 ;;
                esac
                """)
            for (name, timeline, fresh) in [("a", "1", "0.2"), ("b", "0.5", "0.5")] {
                try timeline.write(toFile: fixture.directory + "/timeline-" + name, atomically: true, encoding: .utf8)
                try fresh.write(toFile: fixture.directory + "/fresh-" + name, atomically: true, encoding: .utf8)
            }
            try fixture.descriptor("test.a", exec: ["./scored", "a"])
            try fixture.descriptor("test.b", exec: ["./scored", "b"])
            let config = fixture.directory + "/widgetd.conf"
            try "[budget]\nrelevance-per-hour = \(perHour)\n[rotation]\nmin-dwell = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            let a = try fixture.add("test.a")
            let b = try fixture.add("test.b")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", a, b).status == 0)
            #expect(fixture.ctl("clock", "advance", "1m").status == 0)
            return (a, b)
        }

        func candidate(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            let candidates = fixture.ctl("--json", "explain", "home").object["candidates"] as? [[String: Any]] ?? []
            return candidates.first { $0["instance"] as? String == id } ?? [:]
        }

        func entryName(_ fixture: DaemonFixture, _ id: String) -> String? {
            let entry = fixture.ctl("--json", "timeline", id).object["entries"] as? [[String: Any]]
            return (entry?.first?["content"] as? [String: Any])?["name"] as? String
        }

        @Test func freshRelevanceReranksWithoutNewContent() throws {
            let fixture = try DaemonFixture()
            let (a, b) = try setUp(fixture)
            #expect(candidate(fixture, a)["score"] as? Double == 1)
            #expect(fixture.ctl("--json", "stack", "show", "home").object["top"] as? String == a)

            let result = fixture.ctl("--json", "relevance", "invalidate", "test.a")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.object["updated"] as? [String] == [a])
            #expect(candidate(fixture, a)["score"] as? Double == 0.2)
            #expect(candidate(fixture, b)["score"] as? Double == 0.5)
            #expect(entryName(fixture, a) == "a", "the content stays")
            // A's best in the window is still 1, so its relative relevance is 0.2; B's is 1.
            #expect(fixture.ctl("--json", "stack", "show", "home").object["top"] as? String == b)

            // Kept across a restart, until a new timeline replaces it.
            #expect(fixture.stop() == 0)
            try fixture.start(clock: "2026-01-05T08:02:00Z", arguments: ["--config", fixture.directory + "/widgetd.conf"])
            #expect(candidate(fixture, a)["score"] as? Double == 0.2)
            #expect(fixture.ctl("reload", "--instance", a, "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(candidate(fixture, a)["score"] as? Double == 1)
            #expect(fixture.stop() == 0)
            try fixture.start(clock: "2026-01-05T08:03:00Z", arguments: ["--config", fixture.directory + "/widgetd.conf"])
            #expect(candidate(fixture, a)["score"] as? Double == 1)

            // The client library.
            let center = WidgetCenter(socketPath: fixture.socketPath)
            #expect(try center.requestRelevance(ofKinds: ["test.b"]).updated == [b])
        }

        @Test func theHourlyLimitLeavesInstancesOutAndBadAnswersChangeNothing() throws {
            let fixture = try DaemonFixture()
            let (a, _) = try setUp(fixture, perHour: 2)
            for _ in 0..<2 {
                #expect(fixture.ctl("--json", "relevance", "invalidate", "test.a").object["updated"] as? [String] == [a])
            }
            let third = fixture.ctl("--json", "relevance", "invalidate", "test.a").object
            #expect(third["updated"] as? [String] == [])
            #expect(third["limited"] as? [String] == [a])
            #expect(fixture.ctl("relevance", "invalidate", "test.a").stdout.contains("not asked (relevance-per-hour reached): \(a)"))
            #expect(fixture.ctl("clock", "advance", "1h").status == 0)

            // An answer that is not relevance fails that instance alone and changes nothing.
            try "\"high\"".write(toFile: fixture.directory + "/fresh-a", atomically: true, encoding: .utf8)
            let before = candidate(fixture, a)["score"] as? Double
            let bad = fixture.ctl("--json", "relevance", "invalidate", "test.a").object
            let failed = bad["failed"] as? [[String: Any]] ?? []
            #expect(failed.first?["instance"] as? String == a)
            #expect(candidate(fixture, a)["score"] as? Double == before)

            let unknown = fixture.ctl("relevance", "invalidate", "test.nope")
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("unknown kind 'test.nope'"), "\(unknown.stderr)")
        }
    }
}
