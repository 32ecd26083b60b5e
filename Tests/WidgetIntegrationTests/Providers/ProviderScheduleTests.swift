import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// An exec provider reloaded by the real daemon as the virtual clock moves.
    @Suite struct ProviderSchedule {
        @Test func reloadsFollowPolicyAndBudgetAsClockAdvances() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "10m").status == 0)
            // 08:00 first load (exempt); 08:02 atEnd; the next atEnd (08:04) waits for the
            // 5-minute spacing to 08:07; the one after (08:09) is deferred to 08:12.
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T08:02:00Z", "2026-01-05T08:07:00Z"])
            let schedule = fixture.ctl("--json", "schedule").array
            #expect(schedule.count == 1)
            #expect(schedule.first?["instance"] as? String == id)
            #expect(schedule.first?["due"] as? String == "2026-01-05T08:12:00Z")
            #expect(schedule.first?["wanted"] as? String == "2026-01-05T08:09:00Z")
            #expect(schedule.first?["reason"] as? String == "policy")
            #expect(schedule.first?["deferredBy"] as? String == "budget")
            let budget = fixture.ctl("--json", "budget", id).object
            #expect(budget["used"] as? Int == 2)
            #expect(budget["limit"] as? Int == 70)
            #expect(budget["nextAllowed"] as? String == "2026-01-05T08:12:00Z")
            // At 08:10 the timeline from 08:07 shows its last entry (08:09).
            let timeline = fixture.ctl("--json", "timeline", id).object
            #expect(timeline["currentIndex"] as? Int == 2)
        }

        @Test func withoutBudgetEveryPolicyDateReloads() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start(arguments: ["--no-budget"])
            _ = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "10m").status == 0)
            #expect(fixture.launches().map(\.now) == [
                "2026-01-05T08:00:00Z", "2026-01-05T08:02:00Z", "2026-01-05T08:04:00Z", "2026-01-05T08:06:00Z",
                "2026-01-05T08:08:00Z", "2026-01-05T08:10:00Z",
            ])
        }

        @Test func sameProviderDueWithinWindowShareOneLaunch() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            _ = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            _ = try fixture.add("test.counter", family: "systemMedium")
            // A is due 08:02:00, B 08:02:30: within W = 60 s, so one launch at 08:02:00.
            #expect(fixture.ctl("clock", "advance", "100s").status == 0)
            let launches = fixture.launches()
            #expect(launches.map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T08:00:30Z", "2026-01-05T08:02:00Z"])
            #expect(launches.map(\.instances) == [1, 1, 2])
        }

        @Test func aLaunchTakesAlongWhatIsDueWithinTheWindowEarly() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            _ = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "90s").status == 0)
            _ = try fixture.add("test.counter")
            // B's first load at 08:01:30 takes A (due 08:02:00, 30 s later) along: never later
            // than its policy date and at most W earlier.
            #expect(fixture.ctl("clock", "advance", "150s").status == 0)
            let launches = fixture.launches()
            #expect(launches.map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T08:01:30Z", "2026-01-05T08:03:30Z"])
            #expect(launches.map(\.instances) == [1, 2, 1])
        }

        @Test func dueBeyondTheWindowLaunchSeparately() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            let config = fixture.directory + "/widgetd.conf"
            try "[scheduler]\ncoalescing-window = 20s\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config, "--no-budget"])
            _ = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            _ = try fixture.add("test.counter")
            // A due 08:02:00 and B due 08:02:30 are 30 s apart, beyond W = 20 s.
            #expect(fixture.ctl("clock", "advance", "2m").status == 0)
            let launches = fixture.launches()
            #expect(launches.map(\.now) == [
                "2026-01-05T08:00:00Z", "2026-01-05T08:00:30Z", "2026-01-05T08:02:00Z", "2026-01-05T08:02:30Z",
            ])
            #expect(launches.map(\.instances) == [1, 1, 1, 1])
        }

        @Test func aProviderWithoutBatchNeverGetsAnotherConfigurationsTimeline() throws {
            let fixture = try DaemonFixture()
            let log = fixture.directory + "/echo.log"
            // Answers one plain Timeline for the top-level configuration, as providers may.
            try fixture.provider("echo", """
                #!/bin/sh
                request=$(cat)
                city=$(printf '%s' "$request" | sed -n 's/^{"configuration":{"city":"\\([^"]*\\)".*/\\1/p')
                count=$(printf '%s' "$request" | grep -o '"instance":' | wc -l)
                echo "$city $((count - 1))" >> "\(log)"
                printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"city":"%s"}}],"policy":"never"}' "$city"
                """)
            try fixture.descriptor("test.echo", exec: ["./echo"], intent: DaemonFixture.testIntent)
            try fixture.start()
            let oslo = try fixture.add("test.echo", "city=Oslo")
            let kyoto = try fixture.add("test.echo", "city=Kyoto")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            #expect(fixture.ctl("reload", "test.echo", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            for (id, city) in [(oslo, "Oslo"), (kyoto, "Kyoto")] {
                let entry = fixture.ctl("--json", "timeline", id).object["currentEntry"] as? [String: Any]
                #expect((entry?["content"] as? [String: Any])?["city"] as? String == city)
            }
            // Each launch served one configuration, however the reloads fell together.
            let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
            #expect(lines.count == 4)
            #expect(lines.allSatisfy { $0.hasSuffix(" 1") })
        }

        @Test func firstLoadsOfSeveralInstancesMerge() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            for _ in 0..<3 { _ = try fixture.add("test.counter") }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // On the virtual clock each add's first load runs before its answer, so they do not
            // share a launch; every instance is loaded exactly once at 08:00 and nothing else runs.
            let launches = fixture.launches()
            #expect(launches.allSatisfy { $0.now == "2026-01-05T08:00:00Z" })
            #expect(launches.map(\.instances).reduce(0, +) == 3)
            #expect(fixture.ctl("--json", "list").array.allSatisfy { $0["hasTimeline"] as? Bool == true })
        }

        @Test func appReloadRequestsCollapseAndUnknownKindIsRefused() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "30s").status == 0)
            let first = fixture.ctl("--json", "reload", "test.counter")
            #expect(first.status == 0)
            #expect(first.object["instances"] as? [String] == [id])
            #expect(fixture.ctl("reload", "test.counter").status == 0)
            #expect(fixture.ctl("reload", "--all").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // Three requests, one reload now (budget spacing keeps any later one for 08:05:30).
            #expect(fixture.launches().filter { $0.now == "2026-01-05T08:00:30Z" }.count == 1)
            let unknown = fixture.ctl("reload", "test.nope")
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("unknown kind 'test.nope'"))
        }

        @Test func userInitiatedReloadIsExemptFromBudget() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("clock", "advance", "2m").status == 0)  // 08:02 budgeted reload
            #expect(fixture.ctl("reload", "test.counter").status == 0)
            let deferred = fixture.ctl("--json", "schedule").array.first
            #expect(deferred?["reason"] as? String == "policy" || deferred?["reason"] as? String == "requested")
            #expect(deferred?["due"] as? String == "2026-01-05T08:07:00Z")
            #expect(fixture.ctl("reload", "test.counter", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.launches().map(\.now).last == "2026-01-05T08:02:00Z")
            #expect(fixture.launches().count == 3)
            #expect(fixture.ctl("--json", "budget", id).object["used"] as? Int == 1)
        }

        @Test func pushInstallsTimelineAndBadTimelineChangesNothing() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            let id = try fixture.add("test.pushed")
            let timeline = """
                {"entries":[{"date":"2026-01-05T09:00:00Z","content":{"v":2}},{"date":"2026-01-05T07:00:00Z","content":{"v":1},"relevance":{"score":0.5}}],
                 "policy":{"after":"2026-01-05T10:00:00Z"}}
                """
            let push = fixture.ctl(["--json", "push", id, "-"], stdin: timeline)
            #expect(push.status == 0)
            #expect(push.object["entries"] as? Int == 2)
            let shown = fixture.ctl("--json", "timeline", id).object
            let entries = shown["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["date"] as? String } == ["2026-01-05T07:00:00Z", "2026-01-05T09:00:00Z"])
            #expect(shown["currentIndex"] as? Int == 0)
            #expect(shown["nextEntryChange"] as? String == "2026-01-05T09:00:00Z")

            let bad = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[{"date":"yesterday","content":1}],"policy":"atEnd"}"#)
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("params.timeline.entries[0].date"))
            let badPolicy = fixture.ctl(["push", id, "-"], stdin: #"{"entries":[],"policy":"sometimes"}"#)
            #expect(badPolicy.status == 1)
            #expect(badPolicy.stderr.contains("policy"))
            let after = fixture.ctl("--json", "timeline", id).object
            #expect((after["entries"] as? [Any])?.count == 2)

            // The entry change at 09:00 happens on the virtual clock.
            #expect(fixture.ctl("clock", "set", "2026-01-05T09:00:00Z").status == 0)
            #expect(fixture.ctl("--json", "timeline", id).object["currentIndex"] as? Int == 1)
        }
    }
}
