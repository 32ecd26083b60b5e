import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// What a new user meets first in widgetctl: clear refusals, help for every argument,
    /// `donations list`, and completion of the names the daemon holds.
    @Suite struct WidgetctlPolish {
        @Test func aSignedDurationIsRefusedClearlyAndMovesNothing() throws {
            let fixture = try DaemonFixture()
            try fixture.start()
            for duration in ["-1h", "+1h", "-90s"] {
                let result = fixture.ctl("clock", "advance", duration)
                #expect(result.status == 2, "\(duration): \(result.stdout)")
                #expect(result.stderr.contains("'\(duration)' has a sign"), "\(duration): \(result.stderr)")
                #expect(result.stderr.contains("clock set"), "\(duration): \(result.stderr)")
                #expect(!result.stdout.contains("USAGE"), "\(duration) printed the help: \(result.stdout)")
            }
            #expect(fixture.ctl("--json", "clock").object["now"] as? String == "2026-01-05T08:00:00Z")
        }

        @Test func everyArgumentHasHelp() throws {
            let fixture = try DaemonFixture()
            let dump = fixture.ctl("--experimental-dump-help")
            #expect(dump.status == 0)
            var missing: [String] = []
            var counted = 0
            func walk(_ command: [String: Any], _ path: [String]) {
                // `help`'s own argument belongs to the argument parser, not to widgetctl.
                guard path.last != "help" else { return }
                for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                    counted += 1
                    if (argument["abstract"] as? String ?? "").isEmpty {
                        missing.append((path + [argument["valueName"] as? String ?? "?"]).joined(separator: " "))
                    }
                }
                for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                    walk(sub, path + [sub["commandName"] as? String ?? "?"])
                }
            }
            walk(try #require(dump.object["command"] as? [String: Any]), ["widgetctl"])
            #expect(counted > 60, "the help dump lists only \(counted) arguments")
            #expect(missing.isEmpty, "arguments without help: \(missing)")
        }

        @Test func donationsListOldestFirstAndFiltered() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            #expect(fixture.ctl("--json", "donations", "list").array.isEmpty)
            #expect(fixture.ctl("donate", "TestConfiguration", "--set", "slot=2", "--at", "2026-01-05T07:00:00Z", "--id", "late").status == 0)
            #expect(fixture.ctl("donate", "TestConfiguration", "--set", "city=Oslo", "--at", "2026-01-04T07:00:00Z").status == 0)
            #expect(fixture.ctl("donate", "OtherIntent", "--group", "g").status == 0)
            let all = fixture.ctl("--json", "donations", "list").array
            #expect(all.map { $0["intentType"] as? String } == ["TestConfiguration", "TestConfiguration", "OtherIntent"])
            #expect(all.map { $0["date"] as? String } == ["2026-01-04T07:00:00Z", "2026-01-05T07:00:00Z", "2026-01-05T08:00:00Z"])
            #expect((all.first?["parameters"] as? [String: Any])?["city"] as? String == "Oslo")
            #expect(all[1]["id"] as? String == "late")
            let other = fixture.ctl("--json", "donations", "list", "--intent", "OtherIntent").array
            #expect(other.count == 1 && other.first?["group"] as? String == "g")
            let table = fixture.ctl("donations", "list").stdout
            #expect(table.contains("DATE") && table.contains("INTENT") && table.contains("{\"slot\":2}"), "\(table)")
            #expect(fixture.ctl("donations", "delete", "--group", "g").status == 0)
            #expect(fixture.ctl("--json", "donations", "list").array.count == 2)
        }

        @Test func completionOffersKindsStacksIdsAndFamilies() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let id = try fixture.add("test.counter")
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            func complete(_ command: [String], _ argument: String, _ words: [String]) -> [String] {
                let result = fixture.ctl(["---completion"] + command + ["--", argument, "\(words.count - 1)", "0", "widgetctl"] + words)
                return result.stdout.split(separator: "\n").map(String.init)
            }
            #expect(complete(["remove"], "positional@0", ["remove", ""]) == [id])
            #expect(complete(["add"], "positional@0", ["add", ""]) == ["test.counter"])
            #expect(complete(["stack", "show"], "positional@0", ["stack", "show", ""]) == ["home"])
            let families = fixture.ctl("--generate-completion-script", "bash").stdout
            #expect(families.contains("systemSmall") && families.contains("accessoryInline"))
            fixture.stop()
            // No daemon: nothing offered, and no wait.
            #expect(complete(["remove"], "positional@0", ["remove", ""]).isEmpty)
        }
    }
}
