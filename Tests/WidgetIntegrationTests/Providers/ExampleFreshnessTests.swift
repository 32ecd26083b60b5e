import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The shipped examples under the default budget, over a simulated week: the budget never
    /// holds a reload back, so no example shows stale data for want of budget, and the clock
    /// shows the minute it is.
    @Suite struct ExampleFreshness {
        @Test func everyShippedExampleStaysCurrentForAWeek() throws {
            let fixture = try DaemonFixture()
            try fixture.start(arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            let kinds = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            #expect(kinds.count == 8, "expected the eight shipped examples")
            var ids: [String: String] = [:]
            for kind in kinds {
                let name = try #require(kind["kind"] as? String)
                let family = try #require((kind["supportedFamilies"] as? [String])?.first)
                ids[try fixture.add(name, family: family)] = name
            }

            // 47 minutes a step, so the checks land on every minute of the hour in turn.
            let step: TimeInterval = 47 * 60
            var now = try #require(Self.date(fixture.ctl("--json", "clock").object["now"]))
            let end = now.addingTimeInterval(7 * 86_400)
            var problems: [String] = []
            while now < end, problems.count < 10 {
                let advanced = fixture.ctl("clock", "advance", "47m")
                #expect(advanced.status == 0, "clock advance: \(advanced.stderr)")
                now.addTimeInterval(step)
                problems += Self.staleness(fixture, ids: ids, at: now)
            }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            for id in ids.keys {
                let budget = fixture.ctl("--json", "budget", id).object
                let used = budget["used"] as? Int ?? -1
                let limit = budget["limit"] as? Int ?? 0
                #expect(used >= 0 && used < limit, "\(ids[id] ?? id): \(used) of \(limit) budgeted reloads in the last day")
            }
        }

        /// What is stale at `now`: a reload the budget pushed past the date its policy wanted,
        /// a reload overdue, an instance with no current entry, a clock showing another minute.
        private static func staleness(_ fixture: DaemonFixture, ids: [String: String], at now: Date) -> [String] {
            let stamp = Self.format(now)
            var problems: [String] = []
            for item in fixture.ctl("--json", "schedule").array {
                let kind = item["kind"] as? String ?? "?"
                let due = item["due"] as? String ?? ""
                if due != item["wanted"] as? String {
                    problems.append("\(stamp) \(kind): reload wanted at \(item["wanted"] ?? "-") is held until \(due)")
                }
                if due < stamp { problems.append("\(stamp) \(kind): reload overdue since \(due)") }
            }
            let list = fixture.ctl("--json", "list").array
            if list.count != ids.count { problems.append("\(stamp): \(list.count) instances listed, \(ids.count) added") }
            for instance in list {
                let kind = instance["kind"] as? String ?? "?"
                guard let entry = instance["currentEntry"] as? [String: Any] else {
                    problems.append("\(stamp) \(kind): no current entry")
                    continue
                }
                if kind == "com.example.clock" {
                    let shown = (entry["content"] as? [String: Any])?["time"] as? String
                    let minute = String(stamp.dropFirst(11).prefix(5))
                    if shown != minute { problems.append("\(stamp) clock shows \(shown ?? "nothing"), not \(minute)") }
                }
            }
            return problems
        }

        private static func date(_ value: Any?) -> Date? {
            (value as? String).flatMap { try? Date.ISO8601FormatStyle().parse($0) }
        }

        private static func format(_ date: Date) -> String {
            date.formatted(Date.ISO8601FormatStyle())
        }
    }
}
