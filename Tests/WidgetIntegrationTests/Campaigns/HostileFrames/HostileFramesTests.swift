import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Protocol fuzzing over the socket: over 100,000 hostile frames from a seeded generator,
    /// on eight connections at a time, against the real daemon.
    @Suite struct HostileFrames {
        /// `HOSTILE_SEED` replays another campaign; `HOSTILE_FRAMES` changes its size.
        static let seed = ProcessInfo.processInfo.environment["HOSTILE_SEED"].flatMap { UInt64($0, radix: 16) }
            ?? 0x5EED_F00D_2026_0006
        static let frames = ProcessInfo.processInfo.environment["HOSTILE_FRAMES"].flatMap { Int($0) } ?? 100_000
        static let lanes = 8
        /// Generous: the daemon's own footprint is a few tens of MiB, and the campaign's frames
        /// go up to the 1 MiB line limit on eight connections at once.
        static let rssGrowthLimitMiB = 200

        @Test func everyFrameIsAnsweredAndTheDaemonSurvives() throws {
            let fixture = try DaemonFixture()
            // A push-only kind with a schema: one instance and one stack take hostile values.
            try fixture.descriptor("fuzz.push", exec: nil, intent: DaemonFixture.testIntent)
            try fixture.start()
            let victim = try fixture.add("fuzz.push")
            #expect(fixture.ctl("stack", "create", "fuzz-stack").status == 0)
            let pid = try #require(fixture.pid)
            let before = try ProcessStats.memory(pid)

            let started = Date()
            let campaign = HostileCampaign(
                socketPath: fixture.socketPath, seed: Self.seed, victim: victim, lanes: Self.lanes,
                framesPerLane: (Self.frames + Self.lanes - 1) / Self.lanes, lineLimit: 1 << 20)
            let tally = campaign.run()
            let seconds = Date().timeIntervalSince(started)
            let after = try ProcessStats.memory(pid)

            print(
                "hostile frames: seed \(String(Self.seed, radix: 16)), \(tally.framesSent) frames sent (\(tally.silent) silent, "
                    + "\(tally.abandoned) unread on dropped connections), \(tally.answers) answers, \(tally.events) events, "
                    + "errors by code [\(tally.codesText)], \(tally.connections) connections on \(Self.lanes) lanes, "
                    + "RSS \(before.rss / 1024) MiB before, \(after.rss / 1024) MiB after (peak \(after.peak / 1024) MiB), "
                    + String(format: "%.1f s", seconds))
            print("hostile frames by category: " + tally.byCategory.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            for failure in tally.failures { print("hostile frames: FAILURE \(failure)") }
            fflush(nil)
            if !tally.failures.isEmpty {
                let lines = fixture.log().split(separator: "\n").filter { $0.contains("connection ended") || $0.contains("error") }
                for line in lines.suffix(20) { print("hostile frames: daemon log: \(line.prefix(400))") }
            }

            #expect(tally.failures.isEmpty)
            #expect(tally.framesSent >= Self.frames)
            #expect((after.rss - before.rss) / 1024 <= Self.rssGrowthLimitMiB)

            // No crash, and a fresh connection is served at once.
            #expect(fixture.isRunning)
            let fresh = try RawConnection(path: fixture.socketPath)
            #expect(fresh.request(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?["result"] != nil)
            let status = fresh.request(#"{"jsonrpc":"2.0","id":2,"method":"status"}"#)?["result"] as? [String: Any]
            #expect(status?["instances"] as? Int == 1)

            // Hostile frames changed nothing they should not: the one instance is still the
            // only one, and stacks hold nothing else.
            try Self.expectState(fixture, victim: victim)
            // The state database reopens: stop, start again, same state. SIGTERM is given a
            // deadline, so a daemon that does not stop fails the test instead of hanging it.
            let pidToStop = try #require(fixture.pid)
            kill(pidToStop, SIGTERM)
            let deadline = Date().addingTimeInterval(60)
            while fixture.isRunning && Date() < deadline { usleep(100_000) }
            let stoppedOnTerm = !fixture.isRunning
            if !stoppedOnTerm {
                print("hostile frames: FAILURE widgetd still running 60 s after SIGTERM; log tail:")
                for line in fixture.log().split(separator: "\n").suffix(5) { print("  \(line.prefix(300))") }
            }
            #expect(stoppedOnTerm, "widgetd did not exit within 60 s of SIGTERM after the campaign")
            fixture.crash()
            fflush(nil)
            #expect(Self.integrityCheck(fixture.stateDirectory + "/state.sqlite") == "ok")
            try fixture.start()
            try Self.expectState(fixture, victim: victim)
        }

        static func expectState(_ fixture: DaemonFixture, victim: String) throws {
            let list = fixture.ctl("--json", "list")
            #expect(list.status == 0, "list: \(list.stderr)")
            #expect(list.array.map { $0["id"] as? String } == [victim])
            #expect(list.array.first?["kind"] as? String == "fuzz.push")
            let stacks = fixture.ctl("--json", "stack", "list")
            #expect(stacks.status == 0, "stack list: \(stacks.stderr)")
            for stack in stacks.array {
                #expect(Set(stack["instances"] as? [String] ?? []).isSubset(of: [victim]))
            }
            #expect(fixture.ctl("status").status == 0)
        }

        /// `PRAGMA integrity_check` through the sqlite3 shell; "ok" when sound.
        static func integrityCheck(_ path: String) -> String {
            do { return try StateSQL.run(path, "PRAGMA integrity_check") } catch { return "\(error)" }
        }
    }
}
