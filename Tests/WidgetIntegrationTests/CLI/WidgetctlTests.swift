import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// widgetctl's exit statuses and output shapes (docs/widgetctl.md).
    @Suite struct Widgetctl {
        @Test func exitStatuses() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            // 3: no daemon.
            let unreachable = fixture.ctl("status")
            #expect(unreachable.status == 3)
            #expect(unreachable.stderr.contains("cannot reach widgetd"))
            try fixture.start()
            #expect(fixture.ctl("status").status == 0)
            // 2: usage.
            #expect(fixture.ctl("frobnicate").status == 2)
            #expect(fixture.ctl("add", "test.counter").status == 2)
            #expect(fixture.ctl("clock", "advance", "soon").status == 2)
            #expect(fixture.ctl("reload").status == 2)
            // 1: the daemon said no.
            let missing = fixture.ctl("remove", "deadbeef")
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no instance with id 'deadbeef'"))
            // 0 with --help.
            #expect(fixture.ctl("--help").status == 0)
        }

        @Test func globalOptionsGoBeforeOrAfterTheCommand() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let before = fixture.ctl(["--socket", fixture.socketPath, "--json", "add", "test.counter", "--family", "systemSmall"], socket: "/nonexistent")
            #expect(before.status == 0)
            #expect(before.object["id"] is String)
            let after = fixture.ctl(["list", "--json", "--socket", fixture.socketPath], socket: "/nonexistent")
            #expect(after.array.count == 1)
            #expect(after.array.first?["kind"] as? String == "test.counter")
            #expect(after.array.first?["family"] as? String == "systemSmall")
            #expect(after.array.first?["configuration"] is [String: Any])
        }

        @Test func clockCommandsAreRefusedOnTheRealClock() throws {
            let fixture = try DaemonFixture()
            try fixture.start(clock: nil)
            let advance = fixture.ctl("clock", "advance", "1h")
            #expect(advance.status == 1)
            #expect(advance.stderr.contains("--clock virtual:"))
            #expect(fixture.ctl("clock", "set", "2030-01-01T00:00:00Z").status == 1)
            #expect(fixture.ctl("--json", "clock").object["mode"] as? String == "real")
        }

        @Test func humanTablesShowTheSession() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter", "city=Kyoto")
            #expect(fixture.ctl("clock", "advance", "1m").status == 0)
            let list = fixture.ctl("list").stdout
            #expect(list.contains(id))
            #expect(list.contains(#"{"city":"Kyoto"}"#))
            #expect(list.contains(#"{"n":1}"#))
            let timeline = fixture.ctl("timeline", id).stdout
            #expect(timeline.contains("policy: atEnd"))
            #expect(timeline.contains("▶  2026-01-05T08:01:00Z"))
            #expect(timeline.contains("\n   2026-01-05T08:02:00Z"))  // other rows keep the marker column
            #expect(fixture.ctl("widgets").stdout.contains("test.counter"))
            #expect(fixture.ctl("schedule").stdout.contains("2026-01-05T08:02:00Z  \(id)  test.counter  policy"))
        }
    }
}
