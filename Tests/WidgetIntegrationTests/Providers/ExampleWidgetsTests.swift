import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// The shipped Swift examples (one WidgetProviderKit bundle) run by the real daemon.
    @Suite struct ExampleWidgets {
        static func start() throws -> DaemonFixture {
            let fixture = try DaemonFixture()
            try fixture.start(arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"])
            return fixture
        }

        static func timeline(_ fixture: DaemonFixture, _ id: String) -> (entries: [[String: Any]], policy: Any?, error: String?) {
            let object = fixture.ctl("--json", "timeline", id).object
            return (object["entries"] as? [[String: Any]] ?? [], object["policy"], object["lastError"] as? String)
        }

        @Test func randomNumberGivesFiveHourlyNumbersInItsRange() throws {
            let fixture = try Self.start()
            let plain = try fixture.add("com.example.random-number")
            let small = try fixture.add("com.example.random-number", family: "systemMedium", "useCustomRange=true", "customRange=1-10")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let (entries, policy, error) = Self.timeline(fixture, plain)
            #expect(error == nil)
            #expect(policy as? String == "atEnd")
            #expect(entries.compactMap { $0["date"] as? String } == [
                "2026-01-05T08:00:00Z", "2026-01-05T09:00:00Z", "2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z", "2026-01-05T12:00:00Z",
            ])
            let numbers = entries.compactMap { ($0["content"] as? [String: Any])?["number"] as? Int }
            #expect(numbers.count == 5 && numbers.allSatisfy { (1...100).contains($0) })
            let smallNumbers = Self.timeline(fixture, small).entries.compactMap { ($0["content"] as? [String: Any])?["number"] as? Int }
            #expect(smallNumbers.count == 5 && smallNumbers.allSatisfy { (1...10).contains($0) })

            let options = fixture.ctl("--json", "options", "com.example.random-number", "customRange").object["options"] as? [[String: Any]]
            #expect(options?.compactMap { $0["id"] as? String } == ["1-10", "1-100", "50-150", "100-1000"])
            let searched = fixture.ctl("--json", "options", "com.example.random-number", "customRange", "--search", "HUNDRED").object["options"] as? [[String: Any]]
            #expect(searched?.compactMap { $0["id"] as? String } == ["50-150", "100-1000"])
            // maxNumber is hidden while a custom range is used, and checked while shown.
            #expect(fixture.ctl("--json", "list").array.first { $0["id"] as? String == small }.flatMap { $0["configuration"] as? [String: Any] }?["maxNumber"] == nil)
            #expect(fixture.ctl("add", "com.example.random-number", "--family", "systemSmall", "--set", "maxNumber=201").stderr
                .contains("configuration.maxNumber: 201 is above the maximum 200"))
        }

        @Test func emojiRangersHealsOneEntryPerMinuteWithRelevanceEqualToHealth() throws {
            let fixture = try Self.start()
            let id = try fixture.add("com.example.emoji-rangers", "character=egghead")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // At 08:00 Egghead rests at full health; its next battle is at 09:20 (health 67),
            // and it heals a point a minute until 09:53: all of that is in the timeline.
            let timeline = Self.timeline(fixture, id)
            #expect(timeline.error == nil)
            #expect(timeline.policy as? String == "atEnd")
            let healths = timeline.entries.compactMap { ($0["content"] as? [String: Any])?["health"] as? Int }
            #expect(healths == [100] + Array(67...100))
            let scores = timeline.entries.compactMap { ($0["relevance"] as? [String: Any])?["score"] as? Double }
            #expect(scores == healths.map(Double.init))
            #expect(timeline.entries.map { $0["date"] as? String }.prefix(3) == ["2026-01-05T08:00:00Z", "2026-01-05T09:20:00Z", "2026-01-05T09:21:00Z"])
            #expect(timeline.entries.last?["date"] as? String == "2026-01-05T09:53:00Z")
            #expect(fixture.ctl("clock", "set", "2026-01-05T09:20:00Z").status == 0)
            #expect(fixture.ctl("--json", "timeline", id).object["currentIndex"] as? Int == 1)
            #expect(try fixture.add("com.example.emoji-rangers", family: "systemMedium", "character=spouty").isEmpty == false)
            #expect(fixture.ctl("add", "com.example.emoji-rangers", "--family", "systemLarge").status == 1)
            #expect(fixture.ctl("add", "com.example.emoji-rangers", "--family", "systemSmall", "--set", "character=dragon").stderr
                .contains("configuration.character: unknown case \"dragon\""))
        }

        @Test func upNextIsOneEntryRelevantWhileHeadphonesAreConnected() throws {
            let fixture = try Self.start()
            let id = try fixture.add("com.example.up-next")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let (entries, policy, error) = Self.timeline(fixture, id)
            #expect(error == nil)
            #expect(policy as? String == "never")
            #expect(entries.count == 1)
            #expect((entries.first?["content"] as? [String: Any])?["episode"] as? String != nil)
            let relevance = entries.first?["relevance"] as? [String: Any]
            #expect(relevance?["score"] as? Double == 1)
            #expect((relevance?["when"] as? [[String: Any]])?.first?["headphones"] as? Bool == true)
        }

        @Test func shortcutsShowFourOfEightButtonsForTwoHours() throws {
            let fixture = try Self.start()
            let options = fixture.ctl("--json", "options", "com.example.shortcuts", "buttons").object["options"] as? [[String: Any]]
            #expect(options?.compactMap { $0["id"] as? String } == ["scan", "pay", "collect", "card", "transfer", "bills", "travel", "health"])
            let id = try fixture.add("com.example.shortcuts", family: "systemMedium")
            let chosen = try fixture.add("com.example.shortcuts", family: "systemLarge", #"buttons=["travel","health","bills","pay"]"#)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let standard = Self.timeline(fixture, id)
            #expect((standard.policy as? [String: Any])?["after"] as? String == "2026-01-05T10:00:00Z")
            let buttons = (standard.entries.first?["content"] as? [String: Any])?["buttons"] as? [[String: Any]]
            #expect(buttons?.compactMap { $0["id"] as? String } == ["scan", "pay", "collect", "card"])
            let picked = (Self.timeline(fixture, chosen).entries.first?["content"] as? [String: Any])?["buttons"] as? [[String: Any]]
            #expect(picked?.compactMap { $0["id"] as? String } == ["travel", "health", "bills", "pay"])
            let three = fixture.ctl(["add", "com.example.shortcuts", "--family", "systemMedium", "--set", #"buttons=["scan","pay","card"]"#])
            #expect(three.stderr.contains("configuration.buttons: expected exactly 4 values for systemMedium, got 3"))
            let unknown = fixture.ctl(["add", "com.example.shortcuts", "--family", "systemMedium", "--set", #"buttons=["scan","pay","card","rocket"]"#])
            #expect(unknown.stderr.contains("configuration.buttons: [3]: 'rocket' is not offered by the provider"))
        }

        @Test func theToDoListTicksATaskOffThroughPerformAndKeepsItInItsFile() throws {
            let fixture = try DaemonFixture()
            try fixture.start(
                arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"],
                environment: ["STATE_DIRECTORY": fixture.stateDirectory])
            let id = try fixture.add("com.example.todo", "list=work")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            func entry() -> [String: Any] { Self.timeline(fixture, id).entries.first ?? [:] }
            func actions() -> [String] { (entry()["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
            #expect(actions() == ["done-review", "done-slides", "done-expenses"])
            #expect((entry()["content"] as? [String: Any])?["remaining"] as? Int == 5)

            let done = fixture.ctl("--json", "perform", id, "done-slides")
            #expect(done.status == 0, "\(done.stderr)")
            #expect((done.object["result"] as? [String: Any])?["dialog"] as? String == "Done: Draft the slides")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(actions() == ["done-review", "undo-slides", "done-expenses"])
            #expect((entry()["content"] as? [String: Any])?["remaining"] as? Int == 4)
            let file = fixture.stateDirectory + "/examples/todo/\(id).json"
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == #"{"done":["slides"]}"#)

            // Undo clears the tick again.
            #expect(fixture.ctl("--json", "perform", id, "undo-slides").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(actions() == ["done-review", "done-slides", "done-expenses"])
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == #"{"done":[]}"#)
            // An action the entry shown does not have is refused before any provider runs.
            let stale = fixture.ctl("perform", id, "undo-slides")
            #expect(stale.status == 1)
            #expect(stale.stderr.contains("undo-slides"))
        }

        @Test func everyVerbOfTheSDKBundleAnswers() throws {
            let fixture = try Self.start()
            for (kind, family) in [
                ("com.example.random-number", "systemSmall"), ("com.example.emoji-rangers", "systemMedium"), ("com.example.shortcuts", "systemMedium"),
                ("com.example.todo", "systemLarge"),
            ] {
                let preview = fixture.ctl("--json", "preview", kind, "--family", family)
                #expect(preview.status == 0, "\(kind): \(preview.stderr)")
                #expect((preview.object["entry"] as? [String: Any])?["date"] as? String == DaemonFixture.virtualStart)
                let placeholder = fixture.ctl("--json", "placeholder", kind, "--family", family)
                #expect(placeholder.status == 0, "\(kind): \(placeholder.stderr)")
                #expect((placeholder.object["entry"] as? [String: Any])?["content"] is [String: Any])
            }
            let preview = fixture.ctl("--json", "preview", "com.example.random-number", "--family", "systemSmall", "--set", "maxNumber=1").object
            #expect(((preview["entry"] as? [String: Any])?["content"] as? [String: Any])?["number"] as? Int == 1)
        }

        @Test func oneLaunchServesInstancesOfSeveralKinds() throws {
            let fixture = try Self.start()
            let random = try fixture.add("com.example.random-number", "maxNumber=3")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=panda")
            #expect(fixture.ctl("clock", "advance", "30m").status == 0)
            // Both requested at once: due together, same provider, one launch at 08:30.
            #expect(fixture.ctl("reload", "--all").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let together = [random, ranger].sorted().joined(separator: ",")
            #expect(fixture.log().contains("provider launch instances=\(together) kind="))
            let numbers = Self.timeline(fixture, random).entries.compactMap { ($0["content"] as? [String: Any])?["number"] as? Int }
            #expect(numbers.count == 5 && numbers.allSatisfy { (1...3).contains($0) })
            let first = Self.timeline(fixture, random).entries.first?["date"] as? String
            #expect(first == "2026-01-05T08:30:00Z")
            let health = (Self.timeline(fixture, ranger).entries.first?["content"] as? [String: Any])?["health"] as? Int
            #expect(health == 44)  // Power Panda: wounded to 14 at 08:00, +1 a minute
        }
    }
}
