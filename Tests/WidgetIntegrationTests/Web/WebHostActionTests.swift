import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// An entry's actions in the web host: buttons under the card, a tap that runs the
    /// provider's `perform`, the card dimmed while the instance is invalidated, the new entry.
    @Suite struct WebHostActions {
        /// `test.switch`: its entry says whether it is on and offers "Switch on" and "Break it".
        /// `perform` logs its request to `performed`, turns the switch on, and fails for "fail".
        /// Launch n > 0 of `timeline` waits for the file `release<n>`, so the test decides
        /// when the reload after a tap ends.
        static func switchKind(_ fixture: DaemonFixture) throws {
            let directory = fixture.directory
            try fixture.provider("switch", """
                #!/bin/sh
                request=$(cat)
                case "$1" in
                perform)
                    printf '%s\\n' "$request" >> "\(directory)/performed"
                    case "$request" in *'"to":"fail"'*) echo "the switch is stuck" >&2; exit 1 ;; esac
                    echo on > "\(directory)/switch-state"
                    printf '{"dialog":"Switched on"}\\n' ;;
                timeline)
                    n=$(cat "\(directory)/launches" 2>/dev/null | wc -l)
                    echo launch >> "\(directory)/launches"
                    if [ "$n" -gt 0 ]; then while [ ! -e "\(directory)/release$n" ]; do sleep 0.02; done; fi
                    state=$(cat "\(directory)/switch-state" 2>/dev/null || echo off)
                    on='{"id":"on","title":"Switch on","intent":{"type":"Switch","parameters":{"to":"on"}}}'
                    fail='{"id":"fail","title":"Break it","intent":{"type":"Switch","parameters":{"to":"fail"}}}'
                    printf '{"entries":[{"date":"2026-01-05T09:00:00Z","content":{"word":"%s"},"actions":[%s,%s]}],"policy":"never"}\\n' "$state" "$on" "$fail" ;;
                *) exit 64 ;;
                esac
                """)
            try #"<div class="t-note"><b class="word">{{word}}</b></div>"#
                .write(toFile: fixture.widgetsDirectory + "/note.mustache", atomically: true, encoding: .utf8)
            try #"""
                {"kind": "test.switch", "displayName": "Switch", "supportedFamilies": ["systemSmall"],
                 "templates": {"html": "note.mustache"}, "provider": {"exec": ["./switch"]},
                 "actions": [{"type": "Switch", "parameters": [{"name": "to", "type": "string"}]}]}
                """#.write(toFile: fixture.widgetsDirectory + "/switch.json", atomically: true, encoding: .utf8)
        }

        static func card(_ id: String, _ inside: String = "") -> String {
            "document.querySelector('.card[data-instance=\"\(id)\"] \(inside)')"
        }

        @Test func aButtonRunsPerformDimsTheCardUntilTheNewTimelineAndShowsErrors() throws {
            let fixture = try DaemonFixture()
            try Self.switchKind(fixture)
            try fixture.start(clock: WebHost.start)
            let id = try fixture.add("test.switch")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("the switch's card, off, with its two buttons", WebHost.js("[...document.querySelectorAll('.card[data-instance=\"\(id)\"] [data-perform]')].map((b) => b.textContent)")) {
                $0 as? String == #"["Switch on","Break it"]"#
            }
            #expect(try page.evaluate(Self.card(id, ".word") + ".textContent") as? String == "off")
            #expect(try page.evaluate(Self.card(id) + ".hasAttribute('data-invalidated')") as? Bool == false)

            try page.evaluate(Self.card(id, "[data-perform=on]") + ".click()")
            // The provider has performed; the reload after it waits for release1. On the virtual
            // clock `perform` answers once that reload is done, so meanwhile the instance is
            // invalidated in widgetd and the card is dimmed, its buttons off, the old entry shown.
            try Poll.until("the perform request in the provider's log") {
                FileManager.default.fileExists(atPath: fixture.directory + "/performed")
            }
            try Poll.until("list --json to say the switch is invalidated") {
                fixture.ctl("--json", "list").array.first?["invalidated"] as? Bool == true
            }
            let performed = try String(contentsOfFile: fixture.directory + "/performed", encoding: .utf8)
            let request = try JSONSerialization.jsonObject(with: Data(performed.utf8)) as? [String: Any]
            #expect(request?["verb"] as? String == "perform")
            #expect(request?["instance"] as? String == id)
            #expect((request?["intent"] as? [String: Any])?["type"] as? String == "Switch")
            #expect(((request?["intent"] as? [String: Any])?["parameters"] as? [String: Any])?["to"] as? String == "on")
            try page.waitFor("the card dimmed, its button off", WebHost.js("[\(Self.card(id)).hasAttribute('data-invalidated'), \(Self.card(id, "[data-perform=on]")).disabled]")) {
                $0 as? String == "[true,true]"
            }
            #expect(try page.evaluate(Self.card(id, ".word") + ".textContent") as? String == "off")

            #expect(FileManager.default.createFile(atPath: fixture.directory + "/release1", contents: nil))
            try page.waitFor("the perform's dialog under the card", Self.card(id, ".card-note") + "?.textContent ?? ''") { $0 as? String == "Switched on" }
            try page.waitFor("the new entry, no longer dimmed", WebHost.js("[\(Self.card(id, ".word")).textContent, \(Self.card(id)).hasAttribute('data-invalidated')]")) {
                $0 as? String == #"["on",false]"#
            }
            #expect(fixture.ctl("--json", "list").array.first?["invalidated"] == nil)
            #expect(try page.evaluate(Self.card(id, "[data-perform=on]") + ".disabled") as? Bool == false)

            // A perform that fails shows the provider's error on the card, and nothing is reloaded.
            try page.evaluate(Self.card(id, "[data-perform=fail]") + ".click()")
            try page.waitFor("the error under the card", Self.card(id, ".card-note.error") + "?.textContent ?? ''") {
                ($0 as? String ?? "").contains("the switch is stuck")
            }
            // The failed perform's answer and the event that shows the entry again (undimmed)
            // come on two connections, in either order.
            try page.waitFor("the card undimmed after the failed perform", Self.card(id) + ".hasAttribute('data-invalidated')") {
                $0 as? Bool == false
            }
            #expect(fixture.ctl("--json", "list").array.first?["invalidated"] == nil)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let launches = try String(contentsOfFile: fixture.directory + "/launches", encoding: .utf8)
            #expect(launches.split(separator: "\n").count == 2)
        }

        @Test func theToDoExampleTicksATaskOffFromItsButton() throws {
            let fixture = try DaemonFixture()
            // The to-do keeps its ticks under STATE_DIRECTORY, as under systemd.
            try fixture.start(
                clock: WebHost.start, arguments: ["--widgets-dir", TestPaths.repository + "/etc/widgetd/widgets.d"],
                environment: ["STATE_DIRECTORY": fixture.stateDirectory])
            let id = try fixture.add("com.example.todo", family: "systemMedium", "list=groceries")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let host = try WebHostProcess(fixture)
            let browser = try Chromium(url: host.url, directory: fixture.directory)
            defer { browser.close() }
            let page = try browser.page()
            try page.waitFor("a Done button per shown task", WebHost.js("[...document.querySelectorAll('.card[data-instance=\"\(id)\"] [data-perform]')].map((b) => b.dataset.perform)")) {
                $0 as? String == #"["done-milk","done-eggs","done-bread","done-apples"]"#
            }
            #expect(try page.evaluate(Self.card(id, ".t-todo .left") + ".textContent") as? String == "7 of 7 to do")

            try page.evaluate(Self.card(id, "[data-perform=done-eggs]") + ".click()")
            try page.waitFor("the perform's dialog", Self.card(id, ".card-note") + "?.textContent ?? ''") { $0 as? String == "Done: Eggs" }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            try page.waitFor("eggs ticked, with an Undo button", WebHost.js("[\(Self.card(id, "li.done")).dataset.task, !!\(Self.card(id, "[data-perform=undo-eggs]"))]")) {
                $0 as? String == #"["eggs",true]"#
            }
            #expect(try page.evaluate(Self.card(id, ".t-todo .left") + ".textContent") as? String == "6 of 7 to do")
            let file = fixture.stateDirectory + "/examples/todo/\(id).json"
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == #"{"done":["eggs"]}"#)
        }
    }
}
