import Foundation
import Testing
@testable import WidgetTestSupport
@testable import WidgetIntegrationSupport

extension Integration {
    /// `WidgetCenter1` on a real dbus-daemon, through `busctl` and `gdbus`: what introspection
    /// shows, every method checked against the daemon's state through widgetctl, and errors
    /// named for the JSON-RPC ones.
    @Suite struct DBusMethods {
        @Test(.needs(PrivateBus.unavailable))
        func introspectionShowsTheInterface() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture)
            let listed = bus.busctl(["introspect", PrivateBus.name, PrivateBus.path, PrivateBus.name])
            #expect(listed.status == 0, "\(listed.stderr)")
            for (member, signature) in [
                (".ReloadTimelines", "asb"), (".ReloadAllTimelines", "b"), (".ReloadInstances", "asb"), (".InvalidateRelevance", "as"),
                (".GetCurrentConfigurations", "-"), (".Donate", "sa{sv}"), (".DeleteDonations", "a{sv}"), (".Perform", "ss"),
                (".EntryChanged", "ss"), (".TimelineChanged", "ss"), (".Rotated", "ssss"), (".Invalidated", "ss"),
            ] {
                let line = listed.stdout.split(separator: "\n").first { $0.hasPrefix(member + " ") }
                #expect(line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first == Substring(signature), "\(member): \(line ?? "missing")")
            }
            #expect(listed.stdout.contains(#".Version                          property  s         "0.1.0""#) || listed.stdout.contains(#""0.1.0""#))

            let gdbus = bus.gdbus("introspect", ["--dest", PrivateBus.name, "--object-path", PrivateBus.path])
            #expect(gdbus.status == 0, "\(gdbus.stderr)")
            for text in [
                "interface org.widgetd.WidgetCenter1 {", "ReloadInstances(in  as instances,", "in  b userInitiated,", "out as instances);",
                "GetCurrentConfigurations(out aa{sv} configurations);", "Perform(in  s instance,", "out a{sv} result);",
                "Rotated(s stack,", "readonly u Protocol = 1;",
            ] {
                #expect(gdbus.stdout.contains(text), "\(text) not in:\n\(gdbus.stdout)")
            }
        }

        @Test(.needs(PrivateBus.unavailable))
        func everyMethodActsOnTheDaemonsState() throws {
            let fixture = try DaemonFixture()
            // A kind whose provider gives fresh relevance (its `relevance` verb).
            try fixture.provider("scored", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                case "$1" in
                timeline) printf '{"entries":[{"date":"%s","content":{}}],"policy":"never"}\\n' "$now" ;;
                relevance) printf '{"relevance":[{"date":"%s","score":0.5,"duration":3600}]}\\n' "$now" ;;
                *) exit 2 ;;
                esac
                """)
            try fixture.descriptor("test.scored", exec: ["./scored"])
            let bus = try PrivateBus.withWidgetd(fixture)
            let scored = try fixture.add("test.scored")
            let random = try fixture.add("com.example.random-number")
            let ranger = try fixture.add("com.example.emoji-rangers", "character=egghead")
            let todo = try fixture.add("com.example.todo", "list=work")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)

            // GetCurrentConfigurations: what `list` says, as WidgetInfo.
            let configurations = try #require(try bus.callJSON("GetCurrentConfigurations").first as? [[String: Any]])
            func value(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
            let listed = fixture.ctl("--json", "list").array
            #expect(Set(configurations.compactMap { value($0, "id") as? String }) == Set(listed.compactMap { $0["id"] as? String }))
            let rangerInfo = try #require(configurations.first { value($0, "id") as? String == ranger })
            #expect(value(rangerInfo, "kind") as? String == "com.example.emoji-rangers")
            #expect(value(rangerInfo, "family") as? String == "systemSmall")
            let configuration = try #require(value(rangerInfo, "configuration") as? [String: Any])
            #expect((configuration["character"] as? [String: Any])?["data"] as? String == "egghead")

            // The reloads answer the instances now due, as the socket does.
            #expect(try bus.callJSON("ReloadTimelines", "asb", ["1", "com.example.random-number", "true"]).first as? [String] == [random])
            #expect(try bus.callJSON("ReloadInstances", "asb", ["1", ranger, "false"]).first as? [String] == [ranger])
            let all = try #require(try bus.callJSON("ReloadAllTimelines", "b", ["false"]).first as? [String])
            #expect(Set(all) == [random, ranger, todo, scored])
            // What the socket answers to the same request.
            let socket = fixture.ctl("reload", "--all").stdout
            let named = socket.components(separatedBy: ": ").last?.split(whereSeparator: \.isWhitespace).map(String.init) ?? []
            #expect(Set(named) == Set(all), "the socket's answer: \(socket)")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)

            // InvalidateRelevance: the instances whose providers gave fresh relevance, counted.
            #expect(try bus.callJSON("InvalidateRelevance", "as", ["1", "test.scored"]).first as? Int == 1)
            let explained = fixture.ctl("--json", "relevance", "invalidate", "test.scored").object
            #expect(explained["updated"] as? [String] == [scored], "\(explained)")

            // Donate and DeleteDonations, seen through `donations list`.
            let donated = bus.gdbusCall("Donate", ["SelectCharacter", "{'character': <'egghead'>}"])
            #expect(donated.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint32 1,)", "\(donated.stderr)")
            let donations = fixture.ctl("--json", "donations", "list").array
            #expect(donations.count == 1 && donations.first?["intentType"] as? String == "SelectCharacter", "\(donations)")
            #expect(try bus.callJSON("DeleteDonations", "a{sv}", ["1", "all", "b", "true"]).first as? Int == 1)
            #expect(fixture.ctl("--json", "donations", "list").array.isEmpty)

            // Perform: the provider's answer, and the task ticked off in the entry widgetctl shows.
            let performed = bus.gdbusCall("Perform", [todo, "done-slides"])
            #expect(performed.status == 0, "\(performed.stderr)")
            #expect(performed.stdout.contains("'dialog': <'Done: Draft the slides'>"), "\(performed.stdout)")
            #expect(performed.stdout.contains("'reload': <'exempt'>"), "\(performed.stdout)")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let entry = (fixture.ctl("--json", "timeline", todo).object["currentEntry"] as? [String: Any]) ?? [:]
            #expect((entry["content"] as? [String: Any])?["remaining"] as? Int == 4, "\(entry)")

            // The properties are ping's.
            let ping = fixture.ctl("--json", "ping").object
            let version = bus.busctl(["get-property", PrivateBus.name, PrivateBus.path, PrivateBus.name, "Version", "Protocol"])
            #expect(version.stdout == "s \"\(ping["daemon"] as? String ?? "?")\"\nu \(ping["protocol"] as? Int ?? -1)\n", "\(version.stdout) \(ping)")
        }

        @Test(.needs(PrivateBus.unavailable))
        func refusalsAreNamedForTheirJSONRPCErrors() throws {
            let fixture = try DaemonFixture()
            let bus = try PrivateBus.withWidgetd(fixture)
            let socket = fixture.ctl("reload", "no.such.kind")
            let kind = bus.gdbusCall("ReloadTimelines", ["['no.such.kind']", "false"])
            #expect(kind.status != 0)
            #expect(kind.stderr.contains("GDBus.Error:org.widgetd.WidgetCenter1.Error.UnknownKind: unknown kind 'no.such.kind'"), "\(kind.stderr)")
            // The same message as on the socket.
            let message = kind.stderr.components(separatedBy: "UnknownKind: ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            #expect(socket.stderr.contains(message), "socket: \(socket.stderr) bus: \(message)")

            let instance = bus.gdbusCall("ReloadInstances", ["['w-nope']", "true"])
            #expect(instance.stderr.contains("org.widgetd.WidgetCenter1.Error.UnknownInstance: no instance with id 'w-nope'"), "\(instance.stderr)")
            let action = bus.gdbusCall("Perform", ["w-nope", "x"])
            #expect(action.stderr.contains("org.widgetd.WidgetCenter1.Error.UnknownInstance"), "\(action.stderr)")
            let which = bus.gdbusCall("DeleteDonations", ["{'id': <'a'>, 'group': <'b'>}"])
            #expect(which.stderr.contains("org.widgetd.WidgetCenter1.Error.InvalidParams: invalid params"), "\(which.stderr)")
            // Wrong arguments never reach the engine.
            let wrong = bus.busctl(["call", PrivateBus.name, PrivateBus.path, PrivateBus.name, "ReloadTimelines", "s", "x"])
            #expect(wrong.status != 0 && wrong.stderr.contains("ReloadTimelines takes (asb)"), "\(wrong.stderr)")
            // A call larger than the socket takes in one request is refused as the socket
            // refuses it, and widgetd answers the next.
            let kinds = (0..<20).map { "k\($0)." + String(repeating: "x", count: 60_000) }
            let huge = bus.call("ReloadTimelines", "asb", ["\(kinds.count)"] + kinds + ["false"])
            #expect(huge.status != 0 && huge.stderr.contains("message longer than 1048576 bytes"), "\(huge.stderr.prefix(300))")
            #expect(bus.gdbusCall("GetCurrentConfigurations").status == 0)
            let unknown = bus.gdbusCall("Reticulate")
            #expect(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), "\(unknown.stderr)")
        }
    }
}
