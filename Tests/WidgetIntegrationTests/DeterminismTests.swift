import Foundation
import Testing

extension Integration {
    /// Issue 12, item 6: on the virtual clock the same script of requests gives the same
    /// outputs, byte for byte, on an idle machine and with both cores busy. Today's daemon
    /// fails both tests (instance ids are random, launches race with requests, a late provider
    /// answer overwrites a newer push); they are known issues until the new engine lands.
    /// `WIDGETD_DETERMINISM_KEEP=DIR` writes both runs' outputs (ids replaced) there.
    @Suite struct Determinism {
        @Test func theSameScriptGivesTheSameOutputsIdleAndUnderLoad() throws {
            let idle = try DeterminismOutputs.run(busy: false)
            let busy = try DeterminismOutputs.run(busy: true)
            let normalized = busy.differences(from: idle, normalized: true).map { "\n" + $0 }
            let raw = busy.differences(from: idle, normalized: false).map { "\n" + $0 }
            print("determinism: \(idle.names.count) outputs; \(normalized.count) differ with ids replaced by add order, \(raw.count) differ byte for byte")
            let sameInAddOrder = normalized.isEmpty
            let sameBytes = raw.isEmpty
            withKnownIssue("issue 12: random instance ids, launches racing with requests, late provider answers") {
                #expect(sameInAddOrder, "outputs differ with instance ids replaced by their add order (idle, then busy):\(normalized.joined())")
                #expect(sameBytes, "outputs differ byte for byte (idle, then busy):\(raw.joined())")
            }
            if let keep = ProcessInfo.processInfo.environment["WIDGETD_DETERMINISM_KEEP"] {
                try idle.write(to: keep, prefix: "idle")
                try busy.write(to: keep, prefix: "busy")
            }
        }

        /// The race the issue names: a first load still running when a timeline is pushed must
        /// not replace the pushed timeline when it lands; the late answer is dropped, logged at
        /// debug level and counted in `status` as `droppedAnswers`.
        @Test func aLateFirstLoadDoesNotReplaceAPushedTimeline() throws {
            let fixture = try DaemonFixture()
            try fixture.provider("late", """
                #!/bin/sh
                sleep 2
                printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"v":"provider"}}],"policy":"never"}\\n'
                """)
            try fixture.descriptor("r.late", exec: ["./late"])
            try fixture.start()
            defer { fixture.stop() }
            let client = try RPCClient(socket: fixture.socketPath)
            let id = try client.object("add", ["kind": "r.late", "family": "systemSmall"])["id"] as? String ?? ""
            // Whether the first load was still running when the add was answered: only then can
            // an answer come late (an engine that finishes a request's launches first has none).
            let loadedFirst = try client.object("timeline", ["id": id])["currentEntry"] is [String: Any]
            try client.call("push", ["id": id, "timeline": [
                "entries": [["date": "2026-01-05T08:00:00Z", "content": ["v": "pushed"]]], "policy": "never",
            ]])
            // Returns once running launches are applied: the provider's answer is in by then.
            try client.call("clock.advance", ["seconds": 0])
            let current = try client.object("timeline", ["id": id])["currentEntry"] as? [String: Any]
            let shown = (current?["content"] as? [String: Any])?["v"] as? String
            let dropped = try client.object("status")["droppedAnswers"] as? Int
            let logged = fixture.log().split(separator: "\n").contains { line in
                line.contains(" debug ") && line.contains(id) && line.lowercased().contains("drop")
            }
            withKnownIssue("issue 12: a provider's late first-load answer replaces a pushed timeline") {
                #expect(shown == "pushed", "the pushed timeline was replaced by the provider's late answer")
                #expect(dropped == (loadedFirst ? 0 : 1), "status.droppedAnswers: \(dropped.map(String.init) ?? "missing")")
                if !loadedFirst { #expect(logged, "no debug line says the late answer for \(id) was dropped") }
            }
        }
    }
}
