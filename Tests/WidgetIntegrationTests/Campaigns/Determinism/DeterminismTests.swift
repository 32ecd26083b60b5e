import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// On the virtual clock the same script of requests gives the same
    /// outputs, byte for byte, on an idle machine and with both cores busy; and a provider's
    /// late answer never replaces a newer push.
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
            #expect(sameInAddOrder, "outputs differ with instance ids replaced by their add order (idle, then busy):\(normalized.joined())")
            #expect(sameBytes, "outputs differ byte for byte (idle, then busy):\(raw.joined())")
            if let keep = ProcessInfo.processInfo.environment["WIDGETD_DETERMINISM_KEEP"] {
                try idle.write(to: keep, prefix: "idle")
                try busy.write(to: keep, prefix: "busy")
            }
        }

        /// The race the issue names: a first load still running when a timeline is pushed must
        /// not replace the pushed timeline when it lands; the late answer is dropped, logged at
        /// debug level and counted in `status` as `droppedAnswers`. On the real clock, where
        /// `add` is answered before its first load ends (on the virtual clock it waits for it).
        @Test func aLateFirstLoadDoesNotReplaceAPushedTimeline() throws {
            let fixture = try DaemonFixture()
            try fixture.provider("late", """
                #!/bin/sh
                sleep 2
                printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"v":"provider"}}],"policy":"never"}\\n'
                """)
            try fixture.descriptor("r.late", exec: ["./late"])
            try fixture.start(clock: nil)
            defer { fixture.stop() }
            let client = try RPCClient(socket: fixture.socketPath)
            let id = try client.object("add", ["kind": "r.late", "family": "systemSmall"])["id"] as? String ?? ""
            #expect(try client.object("timeline", ["id": id])["currentEntry"] == nil, "the first load is still running")
            try client.call("push", ["id": id, "timeline": [
                "entries": [["date": "2026-01-05T08:00:00Z", "content": ["v": "pushed"]]], "policy": "never",
            ]])
            // The provider answers after 2 s; its answer is dropped once it lands.
            let deadline = Date().addingTimeInterval(30)
            var dropped = 0
            while Date() < deadline {
                dropped = try client.object("status")["droppedAnswers"] as? Int ?? 0
                if dropped > 0 { break }
                usleep(50_000)
            }
            #expect(dropped == 1, "status.droppedAnswers after 30 s: \(dropped)")
            let current = try client.object("timeline", ["id": id])["currentEntry"] as? [String: Any]
            #expect((current?["content"] as? [String: Any])?["v"] as? String == "pushed", "the late answer replaced the push")
            let logged = fixture.log().split(separator: "\n").contains { line in
                line.contains(" debug ") && line.contains(id) && line.lowercased().contains("drop")
            }
            #expect(logged, "no debug line says the late answer for \(id) was dropped")
        }
    }
}
