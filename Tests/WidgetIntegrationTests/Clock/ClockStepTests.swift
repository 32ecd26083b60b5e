import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Clock jumps (docs/overview.md), on the virtual clock: `clock set` forward carries out every entry
    /// change in between, in order, and each reload once; `clock set` back fires nothing
    /// again, and the budget and a user hold are not held back by the size of the step.
    @Suite struct ClockSteps {
        /// Entries every 10 minutes for an hour from the daemon's `now`, policy atEnd; each
        /// launch appends its `now` to launches.log.
        static func hourlyWidget(_ fixture: DaemonFixture) throws {
            try fixture.provider("hourly", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                echo "$now 1" >> "$1"
                t=$(date -u -d "$now" +%s)
                d() { date -u -d "@$(( t + $1 ))" +%Y-%m-%dT%H:%M:%SZ; }
                printf '{"entries":['
                for i in 0 1 2 3 4 5 6; do
                    [ $i -gt 0 ] && printf ','
                    printf '{"date":"%s","content":{"at":"%s"}}' "$(d $((i * 600)))" "$(d $((i * 600)))"
                done
                printf '],"policy":"atEnd"}\\n'
                """)
            try fixture.descriptor("test.hourly", exec: ["./hourly", fixture.launchLog], intent: DaemonFixture.testIntent)
        }

        @Test func setForwardAndBackFiresEachReloadOnceAndSkipsNoEntry() throws {
            let fixture = try DaemonFixture()
            try Self.hourlyWidget(fixture)
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: "2026-01-05T08:00:00Z")
            let watch = try ClockStepWatch(fixture)
            let id = try fixture.add("test.hourly")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z"])

            // Forward 1 h 5 min in one step: the six entry changes of the hour, in order, then
            // the atEnd reload at 09:00, once.
            #expect(fixture.ctl("clock", "set", "2026-01-05T09:05:00Z").status == 0)
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T09:00:00Z"])
            let seen = watch.wait { events in
                events.filter { $0["type"] as? String == "entryChange" }.count >= 6 && events.filter { $0["type"] as? String == "reload" }.count >= 2
            }
            let changes = seen.filter { $0["type"] as? String == "entryChange" && $0["instance"] as? String == id }
            let shown = changes.compactMap { ($0["entry"] as? [String: Any])?["content"] as? [String: Any] }.compactMap { $0["at"] as? String }
            print("clock steps: entry changes after clock set +1h05m: \(shown.joined(separator: " "))")
            let hour = ["08:10", "08:20", "08:30", "08:40", "08:50", "09:00"].map { "2026-01-05T" + $0 + ":00Z" }
            #expect(shown == hour)
            #expect(changes.compactMap { $0["date"] as? String } == shown)
            #expect(seen.filter { $0["type"] as? String == "reload" }.count == 2)

            // A user hold taken at 09:05 would run to 10:05 (the other member is push-only).
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            let other = try fixture.add("test.pushed")
            #expect(fixture.ctl("stack", "add", "home", other, id).status == 0)
            #expect(fixture.ctl("stack", "swipe", "home", id).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let launchesBefore = fixture.launches().count

            // Back 1 h: nothing runs again, the next reload stays at its wall date (10:00), the
            // budget's 09:00 reload counts as made at 08:05, and the hold lasts 1 h from 08:05.
            let backAt = "2026-01-05T08:05:00Z"
            let set = fixture.ctl("--json", "clock", "set", backAt)
            #expect(set.status == 0)
            #expect(set.object["processed"] as? Int == 0)
            #expect(fixture.launches().count == launchesBefore)
            let schedule = fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id }
            #expect(schedule?["due"] as? String == "2026-01-05T10:00:00Z")
            let budget = fixture.ctl("--json", "budget", id).object
            print("clock steps: budget after clock set -1h: \(budget)")
            #expect(budget["lastReload"] as? String == backAt)
            #expect(budget["nextAllowed"] as? String == "2026-01-05T08:10:00Z")
            let stack = fixture.ctl("--json", "stack", "show", "home").object
            #expect(stack["holdUntil"] as? String == "2026-01-05T09:05:00Z")
            #expect(stack["topSince"] as? String == backAt)

            // An app's reload now waits the spacing from 08:05, not from 09:00.
            #expect(fixture.ctl("reload", "test.hourly").status == 0)
            let due = fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id }?["due"] as? String
            #expect(due == "2026-01-05T08:10:00Z")
            #expect(fixture.ctl("clock", "advance", "5m").status == 0)
            #expect(fixture.launches().last?.now == "2026-01-05T08:10:00Z")

            // On through the old instants and beyond: each reload once, where its policy says.
            #expect(fixture.ctl("clock", "set", "2026-01-05T12:00:00Z").status == 0)
            let nows = fixture.launches().map(\.now)
            print("clock steps: launches \(nows.joined(separator: " "))")
            let expected = ["08:00", "09:00", "08:10", "09:10", "10:10", "11:10"].map { "2026-01-05T" + $0 + ":00Z" }
            #expect(nows == expected)
        }

        @Test func setBackTellsHostsTheEntryShownAtTheNewTime() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start(clock: "2026-01-05T08:30:00Z")
            let watch = try ClockStepWatch(fixture)
            let id = try fixture.add("test.pushed")
            let timeline = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"eight"},{"date":"2026-01-05T09:00:00Z","content":"nine"}],"policy":"never"}"#
            #expect(fixture.ctl(["push", id, "-"], stdin: timeline).status == 0)
            #expect(fixture.ctl("clock", "set", "2026-01-05T09:30:00Z").status == 0)
            #expect(fixture.ctl("clock", "set", "2026-01-05T08:15:00Z").status == 0)
            // The push tells the entry it shows ("eight"), then each step its own.
            let changes = watch.wait { $0.filter { $0["type"] as? String == "entryChange" }.count >= 3 }
                .filter { $0["type"] as? String == "entryChange" }
                .compactMap { ($0["entry"] as? [String: Any])?["content"] as? String }
            #expect(changes == ["eight", "nine", "eight"])
            // And "nine" again when 09:00 comes round a second time: the display follows the clock.
            #expect(fixture.ctl("clock", "advance", "1h").status == 0)
            let again = watch.wait { $0.filter { $0["type"] as? String == "entryChange" }.count >= 4 }
                .filter { $0["type"] as? String == "entryChange" }
                .compactMap { ($0["entry"] as? [String: Any])?["content"] as? String }
            #expect(again == ["eight", "nine", "eight", "nine"])
        }
    }
}
