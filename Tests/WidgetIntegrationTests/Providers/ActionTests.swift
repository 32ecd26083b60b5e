import Foundation
import Testing
import WidgetdClient
@testable import WidgetIntegrationSupport

extension Integration {
    /// Actions: an entry's buttons, performed through the provider's `perform` verb; the
    /// instance is invalidated until the reload that follows ends, and that reload is exempt
    /// from the budget up to `action-reloads-per-minute`.
    @Suite struct Actions {
        /// A to-do of one task. Its done flag lives in a file the provider's `perform` toggles;
        /// each timeline offers the action that toggles it. While the file `gate` exists, a
        /// timeline waits for `release` (so a test can look at the instance mid-reload).
        func setUp(_ fixture: DaemonFixture, perMinute: Int = 10) throws -> String {
            let dir = fixture.directory
            try fixture.provider("todo", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                case "$1" in
                timeline)
                    if [ -e "\(dir)/gate" ]; then
                        while [ ! -e "\(dir)/release" ]; do sleep 0.02; done
                    fi
                    done=$(cat "\(dir)/done" 2>/dev/null || echo false)
                    if [ "$done" = true ]; then title=Undo; else title=Done; fi
                    printf '{"entries":[{"date":"%s","content":{"task":"42","done":%s},"actions":[{"id":"toggle","title":"%s","intent":{"type":"ToggleTask","parameters":{"task":"42"}}}]}],"policy":"never"}\\n' "$now" "$done" "$title"
                    ;;
                perform)
                    printf '%s\\n' "$request" >> "\(dir)/performed"
                    if [ -e "\(dir)/fail" ]; then echo "cannot toggle" >&2; exit 3; fi
                    if [ "$(cat "\(dir)/done" 2>/dev/null)" = true ]; then echo false > "\(dir)/done"; else echo true > "\(dir)/done"; fi
                    printf '{"dialog":"Toggled task 42"}\\n'
                    ;;
                *) exit 2 ;;
                esac
                """)
            let descriptor: [String: Any] = [
                "kind": "test.todo", "displayName": "To-do", "supportedFamilies": ["systemSmall"],
                "provider": ["exec": ["./todo"]],
                "actions": [[
                    "type": "ToggleTask",
                    "parameters": [["name": "task", "type": "string"], ["name": "note", "type": "string", "default": "tap"]],
                ]],
            ]
            try JSONSerialization.data(withJSONObject: descriptor).write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/test.todo.json"))
            let config = dir + "/widgetd.conf"
            try "[budget]\naction-reloads-per-minute = \(perMinute)\n".write(toFile: config, atomically: true, encoding: .utf8)
            try fixture.start(arguments: ["--config", config])
            let id = try fixture.add("test.todo")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            return id
        }

        func current(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            fixture.ctl("--json", "timeline", id).object["currentEntry"] as? [String: Any] ?? [:]
        }

        func isDone(_ fixture: DaemonFixture, _ id: String) -> Bool? {
            (current(fixture, id)["content"] as? [String: Any])?["done"] as? Bool
        }

        func listed(_ fixture: DaemonFixture, _ id: String) -> [String: Any] {
            fixture.ctl("--json", "list").array.first { $0["id"] as? String == id } ?? [:]
        }

        @Test func performRunsTheIntentInvalidatesAndReloadsAtOnce() throws {
            let fixture = try DaemonFixture()
            let id = try setUp(fixture)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", id).status == 0)
            let actions = current(fixture, id)["actions"] as? [[String: Any]] ?? []
            #expect(actions.first?["id"] as? String == "toggle")
            #expect(actions.first?["title"] as? String == "Done")
            #expect(isDone(fixture, id) == false)

            let events = fixture.directory + "/events"
            let watch = try fixture.launch(TestPaths.widgetctl, ["--socket", fixture.socketPath, "--json", "watch"], log: events)
            defer {
                kill(watch.processIdentifier, SIGTERM)
                watch.waitUntilExit()
            }
            // And a Waybar module of the stack, which adds the class `invalidated` meanwhile.
            let bar = try BarWatch(fixture, format: "waybar", stack: "home")
            _ = try bar.next("the bar's line for the to-do") { BarAdapter.classes($0) == ["todo"] }
            try Poll.until("widgetctl watch and the bar module to subscribe") {
                (fixture.ctl("--json", "status").object["subscribers"] as? Int ?? 0) >= 2
            }

            // Mid-reload the instance is invalidated: the timeline after the action waits.
            _ = FileManager.default.createFile(atPath: fixture.directory + "/gate", contents: nil)
            let perform = try fixture.launch(
                TestPaths.widgetctl, ["--socket", fixture.socketPath, "--json", "perform", id, "toggle"],
                log: fixture.directory + "/perform.out")
            try Poll.until("list --json to say \(id) is invalidated") { listed(fixture, id)["invalidated"] as? Bool == true }
            #expect(fixture.ctl("--json", "timeline", id).object["invalidated"] as? Bool == true)
            #expect(fixture.ctl("--json", "stack", "show", "home").object["invalidated"] as? Bool == true)
            let listedStack = fixture.ctl("--json", "stack", "list").array.first { $0["name"] as? String == "home" }
            #expect(listedStack?["invalidated"] as? Bool == true)
            #expect(isDone(fixture, id) == false, "the old entry is still shown, marked invalidated")
            _ = try bar.next("the bar's line marked invalidated") { BarAdapter.classes($0) == ["todo", "invalidated"] }
            _ = FileManager.default.createFile(atPath: fixture.directory + "/release", contents: nil)
            perform.waitUntilExit(within: 60)
            #expect(perform.terminationStatus == 0, "\(fixture.log().suffix(2000))")
            let answer = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/perform.out"))) as? [String: Any] ?? [:]
            #expect(answer["reload"] as? String == "exempt")
            #expect((answer["result"] as? [String: Any])?["dialog"] as? String == "Toggled task 42")

            #expect(isDone(fixture, id) == true)
            #expect((current(fixture, id)["actions"] as? [[String: Any]])?.first?["title"] as? String == "Undo")
            #expect(listed(fixture, id)["invalidated"] == nil, "the new timeline ends the invalidation")
            #expect(fixture.ctl("--json", "stack", "show", "home").object["invalidated"] == nil)
            #expect(fixture.ctl("--json", "stack", "list").array.allSatisfy { $0["invalidated"] == nil })
            _ = try bar.next("the bar's line without the mark once the reload ended") { BarAdapter.classes($0) == ["todo"] }

            // The provider got the intent with the type's defaults, and the instance.
            let request = try String(contentsOfFile: fixture.directory + "/performed", encoding: .utf8)
            #expect(request.contains(#""intent":{"parameters":{"note":"tap","task":"42"},"type":"ToggleTask"}"#), "\(request)")
            #expect(request.contains(#""instance":"\#(id)""#))
            #expect(request.contains(#""verb":"perform""#))

            // Subscribers were told: invalidated, then the reload.
            try Poll.until("an invalidated event and the reload after it") {
                let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
                guard let invalidated = text.range(of: #""type":"invalidated""#) else { return false }
                return text[invalidated.upperBound...].contains(#""type":"reload""#)
            }
            let text = try String(contentsOfFile: events, encoding: .utf8)
            #expect(text.contains(#""action":"toggle""#))

            // Exempt: nothing of the instance's budget was spent.
            #expect(fixture.ctl("--json", "budget", id).object["used"] as? Int == 0)
            let center = WidgetCenter(socketPath: fixture.socketPath)
            let result = try center.perform(instance: id, action: "toggle")
            #expect(result.reload == "exempt")
            #expect(isDone(fixture, id) == false)
        }

        @Test func badActionsAreRefusedAndChangeNothing() throws {
            let fixture = try DaemonFixture()
            let id = try setUp(fixture)
            let unknown = fixture.ctl("perform", id, "nope")
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("has no action 'nope' in the entry shown now (actions: toggle)"), "\(unknown.stderr)")
            #expect(fixture.ctl("perform", "missing", "toggle").stderr.contains("no instance with id 'missing'"))
            #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/performed"))

            // A push whose action the kind does not declare, or with a bad parameter, is refused.
            let undeclared = """
                {"entries":[{"date":"2026-01-05T08:00:00Z","content":{},"actions":[{"id":"x","title":"X","intent":{"type":"Other"}}]}]}
                """
            let refused = fixture.ctl(["push", id, "-"], stdin: undeclared)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("intent.type 'Other' is not declared"), "\(refused.stderr)")
            let badParameter = """
                {"entries":[{"date":"2026-01-05T08:00:00Z","content":{},"actions":[{"id":"x","title":"X","intent":{"type":"ToggleTask","parameters":{"task":7}}}]}]}
                """
            let refusedToo = fixture.ctl(["push", id, "-"], stdin: badParameter)
            #expect(refusedToo.status != 0)
            #expect(refusedToo.stderr.contains("intent.parameters.task"), "\(refusedToo.stderr)")
            let twice = """
                {"entries":[{"date":"2026-01-05T08:00:00Z","content":{},"actions":[{"id":"x","title":"X","intent":{"type":"ToggleTask"}},{"id":"x","title":"Y","intent":{"type":"ToggleTask"}}]}]}
                """
            #expect(fixture.ctl(["push", id, "-"], stdin: twice).stderr.contains("used twice"))
            #expect(isDone(fixture, id) == false)
            #expect((current(fixture, id)["actions"] as? [[String: Any]])?.count == 1)

            // A provider that cannot perform: the host gets its error, nothing is invalidated or reloaded.
            _ = FileManager.default.createFile(atPath: fixture.directory + "/fail", contents: nil)
            let reloadsBefore = fixture.logLines(containing: "timelines reloaded").count
            let failed = fixture.ctl("perform", id, "toggle")
            #expect(failed.status != 0)
            #expect(failed.stderr.contains("exit"), "\(failed.stderr)")
            #expect(listed(fixture, id)["invalidated"] == nil)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.logLines(containing: "timelines reloaded").count == reloadsBefore)
        }

        @Test func beyondTheLimitPerMinuteReloadsAreBudgetedNeverDropped() throws {
            let fixture = try DaemonFixture()
            let id = try setUp(fixture, perMinute: 2)
            var reloads: [String] = []
            for _ in 0..<4 {
                reloads.append(fixture.ctl("--json", "perform", id, "toggle").object["reload"] as? String ?? "?")
            }
            #expect(reloads == ["exempt", "exempt", "budgeted", "budgeted"])
            // The budgeted ones still ran (spaced by the budget); none was dropped: four toggles.
            #expect(fixture.ctl("clock", "advance", "10m").status == 0)
            #expect(isDone(fixture, id) == false)
            #expect(listed(fixture, id)["invalidated"] == nil)
            let budget = fixture.ctl("--json", "budget", id).object
            #expect(budget["used"] as? Int ?? 0 >= 1, "\(budget)")
            // After a minute the exempt reloads are there again.
            #expect(fixture.ctl("--json", "perform", id, "toggle").object["reload"] as? String == "exempt")
        }

        /// `perform` answers once the reload after it is stored: a SIGKILL right after loses
        /// neither the action's effect nor the entry's actions, which are stored with it.
        @Test func whatPerformAcknowledgedSurvivesSIGKILL() throws {
            let fixture = try DaemonFixture()
            let id = try setUp(fixture)
            #expect(fixture.ctl("perform", id, "toggle").status == 0)
            fixture.crash()
            try fixture.start(clock: "2026-01-05T08:01:00Z", arguments: ["--config", fixture.directory + "/widgetd.conf"])
            #expect(isDone(fixture, id) == true)
            let actions = current(fixture, id)["actions"] as? [[String: Any]] ?? []
            #expect(actions.first?["title"] as? String == "Undo", "actions are stored with their entry")
            #expect(fixture.ctl("perform", id, "toggle").status == 0)
            #expect(isDone(fixture, id) == false)
        }
    }
}
