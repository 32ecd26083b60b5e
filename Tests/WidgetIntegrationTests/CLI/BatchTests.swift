import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// JSON-RPC 2.0 batches on the real daemon, sent by the real `widgetctl batch`: what a
    /// host does in one round trip (report what it shows, then read its stacks).
    @Suite struct Batches {
        @Test func aHostReportsWhatItShowsAndReadsItsStacksInOneRoundTrip() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "create", "lock").status == 0)
            let a = try fixture.add("test.pushed")
            let b = try fixture.add("test.pushed")
            #expect(fixture.ctl("stack", "add", "home", a, b).status == 0)
            #expect(fixture.ctl("stack", "add", "lock", b).status == 0)

            let calls = """
                [{"method": "visible", "params": {"instances": ["\(a)"]}},
                 {"method": "stack.show", "params": {"name": "home"}},
                 {"method": "stack.show", "params": {"name": "lock"}},
                 {"method": "ping", "notification": true}]
                """
            let json = fixture.ctl(["--json", "batch", "-"], stdin: calls)
            #expect(json.status == 0, "\(json.stderr)")
            let answers = json.array
            #expect(answers.count == 3, "the notification adds no answer: \(json.stdout)")
            #expect((answers.first?["result"] as? [String: Any])?["visible"] as? [String] == [a])
            #expect(answers.dropFirst().compactMap { ($0["result"] as? [String: Any])?["name"] as? String } == ["home", "lock"])
            // The visible report, first in the batch, was applied before the reads that follow it.
            let listed = fixture.ctl("--json", "list").array.first { $0["id"] as? String == a }
            #expect(listed?["visible"] as? Bool == true)

            // One bad call fails the command (exit 1) but not the others.
            let mixed = fixture.ctl(["batch", "-"], stdin: #"[{"method":"stack.show","params":{"name":"nope"}},{"method":"ping"}]"#)
            #expect(mixed.status == 1)
            #expect(mixed.stdout.contains("error -32011"), "\(mixed.stdout)")
            #expect(mixed.stdout.contains("ping: "), "\(mixed.stdout)")

            // Notifications only: nothing comes back, and that is no error.
            let quiet = fixture.ctl(["--json", "batch", "-"], stdin: #"[{"method":"ping","notification":true}]"#)
            #expect(quiet.status == 0)
            #expect(quiet.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

            // On the wire: the spec's answers, one line each.
            let raw = try RawConnection(path: fixture.socketPath)
            raw.send(Data(#"[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method":"ping","id":2}]"#.utf8 + [0x0A]))
            let line = raw.readLine().flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [[String: Any]] }
            #expect(line?.map { $0["id"] as? Int } == [1, 2])
            #expect(raw.request("[]")?["error"] != nil)
        }
    }
}
