import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Intent schemas on the running daemon, with a shell provider serving every verb.
    @Suite struct Configuration {

        /// A provider for `test.random`: logs each request line to `requests.log`.
        static func setUp(_ fixture: DaemonFixture) throws {
            let log = fixture.directory + "/requests.log"
            try fixture.provider("configurable", """
                #!/bin/sh
                request=$(cat)
                printf '%s %s\\n' "$1" "$request" >> "\(log)"
                case "$1" in
                options)
                  search=$(printf '%s' "$request" | sed -n 's/.*"search":"\\([^"]*\\)".*/\\1/p')
                  printf '{"options":['
                  first=1
                  for id in 1-10 1-100 50-150; do
                    case "$id" in *"$search"*) ;; *) continue ;; esac
                    [ $first = 1 ] || printf ','
                    first=0
                    printf '{"id":"%s","display":"Range %s"}' "$id" "$id"
                  done
                  printf ']}\\n' ;;
                snapshot|placeholder)
                  now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                  printf '{"date":"%s","content":{"verb":"%s"},"relevance":{"score":2}}\\n' "$now" "$1" ;;
                timeline)
                  printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":"ok"}],"policy":"never"}\\n' ;;
                esac
                """)
            try fixture.descriptor("test.random", exec: ["./configurable"], intent: [
                "type": "RandomNumber",
                "parameters": [
                    ["name": "useCustomRange", "type": "boolean", "default": false],
                    ["name": "maxNumber", "type": "integer", "default": 100, "min": 1, "max": 200,
                     "showIf": ["parameter": "useCustomRange", "equals": false]],
                    ["name": "customRange", "type": "entity", "showIf": ["parameter": "useCustomRange", "equals": true]],
                    ["name": "character", "type": "enum", "cases": [["id": "panda", "display": "Power Panda"], ["id": "egghead", "display": "Egghead"]]],
                    ["name": "buttons", "type": "string", "multiple": true, "count": ["systemMedium": 2]],
                ],
                "supportedCombinations": [["maxNumber"], ["customRange"]],
            ])
        }

        static func requests(_ fixture: DaemonFixture, verb: String) -> [String] {
            let text = (try? String(contentsOfFile: fixture.directory + "/requests.log", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.hasPrefix(verb + " ") }.map { String($0.dropFirst(verb.count + 1)) }
        }

        @Test func defaultsAndShowIfMakeTheEffectiveConfiguration() throws {
            let fixture = try DaemonFixture()
            try Self.setUp(fixture)
            try fixture.start()
            let plain = try fixture.add("test.random")
            let custom = try fixture.add("test.random", "useCustomRange=true", "maxNumber=7", "customRange=1-10")
            let list = fixture.ctl("--json", "list").array
            let configurations = Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0["configuration"] as! [String: Any]) })
            #expect(NSDictionary(dictionary: configurations[plain]!) == ["useCustomRange": false, "maxNumber": 100])
            #expect(NSDictionary(dictionary: configurations[custom]!) == ["useCustomRange": true, "customRange": "1-10"])
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            // The provider received the effective configurations (one batched launch).
            let timeline = Self.requests(fixture, verb: "timeline").joined()
            #expect(timeline.contains(#""configuration":{"maxNumber":100,"useCustomRange":false}"#))
            #expect(timeline.contains(#""configuration":{"customRange":"1-10","useCustomRange":true}"#))
            // Switching back drops customRange; maxNumber (hidden when set, so not kept) takes its default.
            let changed = fixture.ctl("--json", "configure", custom, "--set", "useCustomRange=false")
            #expect(NSDictionary(dictionary: changed.object["configuration"] as? [String: Any] ?? [:]) == ["useCustomRange": false, "maxNumber": 100])
        }

        @Test func invalidConfigurationsAreRefusedAndNothingIsStored() throws {
            let fixture = try DaemonFixture()
            try Self.setUp(fixture)
            try fixture.start()
            let cases: [([String], String)] = [
                (["colour=red"], "configuration.colour: unknown parameter"),
                (["maxNumber=\"ten\""], "configuration.maxNumber: expected an integer"),
                (["maxNumber=500"], "configuration.maxNumber: 500 is above the maximum 200"),
                (["character=dragon"], "configuration.character: unknown case \"dragon\""),
                (["useCustomRange=true", "customRange=2-3"], "configuration.customRange: '2-3' is not offered by the provider"),
                // Hidden by showIf, and still checked.
                (["useCustomRange=false", "customRange=bogus"], "configuration.customRange: 'bogus' is not offered by the provider"),
            ]
            for (settings, message) in cases {
                let result = fixture.ctl(["add", "test.random", "--family", "systemSmall"] + settings.flatMap { ["--set", $0] })
                #expect(result.status == 1)
                #expect(result.stderr.contains(message), "\(settings): \(result.stderr)")
            }
            let wrongCount = fixture.ctl(["add", "test.random", "--family", "systemMedium", "--set", #"buttons=["a"]"#])
            #expect(wrongCount.stderr.contains("configuration.buttons: expected exactly 2 values for systemMedium, got 1"))
            #expect(fixture.ctl("--json", "list").array.isEmpty)
            let id = try fixture.add("test.random")
            let bad = fixture.ctl("configure", id, "--set", "maxNumber=0")
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("configuration.maxNumber: 0 is below the minimum 1"))
            let after = fixture.ctl("--json", "list").array.first?["configuration"] as? [String: Any]
            #expect(after?["maxNumber"] as? Int == 100)
        }

        @Test func optionsPreviewAndPlaceholderReachTheProvider() throws {
            let fixture = try DaemonFixture()
            try Self.setUp(fixture)
            try fixture.start()
            let all = fixture.ctl("--json", "options", "test.random", "customRange").object["options"] as? [[String: Any]]
            #expect(all?.compactMap { $0["id"] as? String } == ["1-10", "1-100", "50-150"])
            let searched = fixture.ctl("--json", "options", "test.random", "customRange", "--search", "50").object["options"] as? [[String: Any]]
            #expect(searched?.compactMap { $0["id"] as? String } == ["50-150"])
            #expect(Self.requests(fixture, verb: "options").last?.contains(#""search":"50""#) == true)
            let notEntity = fixture.ctl("options", "test.random", "maxNumber")
            #expect(notEntity.status == 1)
            #expect(notEntity.stderr.contains("only entity parameters have dynamic options"))

            let preview = fixture.ctl("--json", "preview", "test.random", "--family", "systemSmall", "--set", "maxNumber=5").object
            #expect((preview["entry"] as? [String: Any])?["date"] as? String == DaemonFixture.virtualStart)
            #expect(((preview["entry"] as? [String: Any])?["content"] as? [String: Any])?["verb"] as? String == "snapshot")
            #expect((preview["configuration"] as? [String: Any])?["maxNumber"] as? Int == 5)
            #expect(Self.requests(fixture, verb: "snapshot").last?.contains(#""isPreview":true"#) == true)
            let placeholder = fixture.ctl("--json", "placeholder", "test.random", "--family", "systemSmall").object
            #expect(((placeholder["entry"] as? [String: Any])?["content"] as? [String: Any])?["verb"] as? String == "placeholder")
            #expect(fixture.ctl("preview", "test.random", "--family", "systemLarge").status == 1)

            // Options are remembered per context (the other values chosen) until invalidated:
            // two adds with the same context ask the provider once.
            let before = Self.requests(fixture, verb: "options").count
            _ = try fixture.add("test.random", "useCustomRange=true", "customRange=1-100")
            _ = try fixture.add("test.random", "useCustomRange=true", "customRange=50-150")
            #expect(Self.requests(fixture, verb: "options").count == before + 1)
            #expect(fixture.ctl("widgets").status == 0)
        }

        @Test func aChangedDescriptorUpdatesStoredConfigurations() throws {
            let fixture = try DaemonFixture()
            try Self.setUp(fixture)
            try fixture.start()
            let id = try fixture.add("test.random", "character=egghead", "maxNumber=150")
            // The new descriptor renames `character` to `hero` and lowers the maximum to 120.
            let path = fixture.widgetsDirectory + "/test.random.json"
            var descriptor = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
            var intent = descriptor["intent"] as! [String: Any]
            var parameters = intent["parameters"] as! [[String: Any]]
            parameters[1]["max"] = 120
            parameters[3]["name"] = "hero"
            intent["parameters"] = parameters
            descriptor["intent"] = intent
            try JSONSerialization.data(withJSONObject: descriptor).write(to: URL(fileURLWithPath: path))
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            let configuration = fixture.ctl("--json", "list").array.first?["configuration"] as? [String: Any]
            #expect(NSDictionary(dictionary: configuration ?? [:]) == ["useCustomRange": false, "maxNumber": 100])
            #expect(fixture.ctl("configure", id, "--set", "hero=panda").status == 0)
            let replaced = fixture.ctl("--json", "configure", id, "--replace", "--set", "maxNumber=7").object["configuration"] as? [String: Any]
            #expect(NSDictionary(dictionary: replaced ?? [:]) == ["useCustomRange": false, "maxNumber": 7])
        }
    }
}
