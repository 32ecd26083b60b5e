import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// A reference model of the rules (`WidgetModel`) beside the real daemon
    /// on the virtual clock. A seeded driver adds, removes, configures, pushes, reloads,
    /// donates, builds stacks, swipes and moves the clock; after every operation each
    /// instance's current entry, pending reload and budget and each stack's top are compared.
    /// By default four seeds of 2,500 operations; `WIDGETD_MODEL_SEED` replays one seed and
    /// `WIDGETD_MODEL_OPS` sets the operations per seed. To look into step N of a replay,
    /// `WIDGETD_MODEL_TRACE_STEP=N` prints the model's evaluations during that step.
    @Suite struct ModelCheck {
        @Test func theDaemonFollowsTheModelStepByStep() throws {
            let size = ModelCheckSize.fromEnvironment()
            let started = Date()
            var total = 0
            var counts: [String: Int] = [:]
            for seed in size.seeds {
                let runner = ModelCheckRunner(seed: seed, operations: size.operations)
                do {
                    total += try runner.run()
                } catch let mismatch as ModelMismatch {
                    Issue.record("\(mismatch)")
                    return
                }
                counts.merge(runner.counts, uniquingKeysWith: +)
            }
            let summary = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("model check: \(total) operations over seeds \(size.seeds) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s (\(summary))")
            #expect(total == size.seeds.count * size.operations)
        }

        /// Found by the model check: a stack was not re-evaluated when a member's best score left
        /// the relevance window, although its relative relevance changes then. Two push-only
        /// instances rank 0.5 each (score 1 against a best of 2); X's best is a minute older
        /// than T's, so at 11:58:00 it leaves X's 4-hour window and X ranks 1.0, beating the
        /// top T by more than the margin. Nothing else happens to the stack afterwards.
        @Test func aStackIsReevaluatedWhenABestScoreLeavesTheWindow() throws {
            let fixture = try DaemonFixture()
            try fixture.start(arguments: try ModelWidgets.install(in: fixture), environment: ["TZ": "UTC"])
            defer { fixture.stop() }
            let client = try RPCClient(socket: fixture.socketPath)
            try client.call("stack.create", ["name": "s"])
            let family = "systemSmall"
            let top = try client.object("add", ["kind": ModelKind.push.rawValue, "family": family, "stack": "s"])["id"] as? String
            let other = try client.object("add", ["kind": ModelKind.push.rawValue, "family": family, "stack": "s"])["id"] as? String
            func push(_ id: String?, best: String) throws {
                try client.call("push", ["id": id ?? "", "timeline": ["policy": "never", "entries": [
                    ["date": best, "content": ["v": "best"], "relevance": ["score": 2]],
                    ["date": "2026-01-05T08:00:00Z", "content": ["v": "now"], "relevance": ["score": 1]],
                ]]])
            }
            try push(top, best: "2026-01-05T07:59:00Z")
            try push(other, best: "2026-01-05T07:58:00Z")
            #expect(try client.object("stack.show", ["name": "s"])["top"] as? String == top)
            try client.call("clock.set", ["date": "2026-01-05T11:58:30Z"])
            let explained = try client.object("explain", ["name": "s"])
            let why = explained["why"] as? String ?? ""
            #expect(explained["best"] as? String == other, "\(why)")
            let shown = try client.object("stack.show", ["name": "s"])["top"] as? String
            #expect(shown == other, "\(why)")
        }
    }
}
