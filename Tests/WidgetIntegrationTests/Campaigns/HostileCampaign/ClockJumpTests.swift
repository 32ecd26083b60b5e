import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// A virtual clock sent to the end of year 9999 carries out every step due on the way; that
    /// work must not hold the loop: other clients are answered and SIGTERM is obeyed meanwhile.
    /// Dates past the years widgetd writes are refused wherever they come in.
    @Suite struct HostileClockJumps {
        /// Eight widgets of a stack with an entry an hour each: the jump has tens of thousands
        /// of entry changes and stack evaluations to do, none of which waits for a provider.
        static let instances = 8
        static let entries = 10_000
        /// How long other clients' pings are watched while the jump runs.
        static let watchSeconds = 3.0
        /// Bounds, not timings: before the jump yielded, one ping waited for the whole jump.
        static let pingBoundSeconds = 2.0
        static let stopBoundSeconds = 10.0

        @Test func aJumpToYear9999LeavesOtherClientsAnsweredAndObeysSIGTERM() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("jump.push", exec: nil)
            try fixture.start(clock: "2026-01-01T00:00:00Z")
            #expect(fixture.ctl("stack", "create", "jump").status == 0)
            let timeline = Self.hourlyTimeline(from: "2026-01-01T00:00:00Z")
            for _ in 0..<Self.instances {
                let added = fixture.ctl("--json", "add", "jump.push", "--family", "systemSmall", "--stack", "jump")
                let id = try #require(added.object["id"] as? String, "add: \(added.stderr)")
                #expect(fixture.ctl(["push", id, "-"], stdin: timeline).status == 0)
            }

            let jumper = try RawConnection(path: fixture.socketPath)
            jumper.send(#"{"jsonrpc":"2.0","id":1,"method":"clock.set","params":{"date":"9999-12-31T23:59:59Z"}}"# + "\n")

            let probe = try RawConnection(path: fixture.socketPath)
            var latencies: [Double] = []
            let watchEnd = ContinuousClock.now + .seconds(Self.watchSeconds)
            var id = 1
            while ContinuousClock.now < watchEnd {
                id += 1
                let sent = ContinuousClock.now
                let answer = probe.request(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#)
                latencies.append(seconds(ContinuousClock.now - sent))
                #expect(answer?["result"] != nil, "ping \(id) during the jump was not answered")
                usleep(20_000)
            }
            // The jump must still be running, or the pings proved nothing.
            let status = probe.request(#"{"jsonrpc":"2.0","id":0,"method":"status"}"#)?["result"] as? [String: Any]
            let clockNow = (status?["clock"] as? [String: Any])?["now"] as? String ?? "?"
            #expect(!clockNow.hasPrefix("9999-12-31"), "the jump ended within \(Self.watchSeconds) s: make it longer")

            let pid = try #require(fixture.pid)
            let signalled = ContinuousClock.now
            kill(pid, SIGTERM)
            let stopped = Self.waitForExit(fixture, within: Self.stopBoundSeconds * 3)
            let stopSeconds = seconds(ContinuousClock.now - signalled)

            latencies.sort()
            let p50 = latencies[latencies.count / 2] * 1000
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1000
            print(
                "clock jump: \(latencies.count) pings while the clock ran to 9999 (at \(clockNow) when stopped): "
                    + String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms; SIGTERM to exit %.2f s", p50, p99, latencies.last! * 1000, stopSeconds))
            #expect(latencies.last! < Self.pingBoundSeconds, "a ping waited for the clock jump")
            #expect(stopped && stopSeconds < Self.stopBoundSeconds, "SIGTERM did not end widgetd during the jump")
        }

        /// Timeline JSON with dates outside years 1 to 9999, or a relevance window ending past
        /// them, is refused whole and changes nothing.
        @Test func datesOutsideYearsOneToNineThousandAreRefused() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("jump.push", exec: nil)
            try fixture.start()
            let id = try fixture.add("jump.push")
            let refused: [(String, String)] = [
                (#"{"entries":[{"date":"0000-01-01T00:00:00Z","content":{}}],"policy":"never"}"#, "years 0001 to 9999"),
                (#"{"entries":[],"policy":{"after":"0000-06-01T00:00:00Z"}}"#, "years 0001 to 9999"),
                (
                    #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{},"relevance":{"score":1,"duration":1e308}}],"policy":"never"}"#,
                    "would end after 9999-12-31T23:59:59Z"
                ),
            ]
            for (timeline, message) in refused {
                let result = fixture.ctl(["push", id, "-"], stdin: timeline)
                #expect(result.status == 1 && result.stderr.contains(message), "\(timeline): \(result.stderr)")
            }
            let entries = fixture.ctl("--json", "timeline", id).object["entries"] as? [Any] ?? []
            #expect(entries.isEmpty, "a refused timeline left entries")

            let donation = #"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"intentType":"T","date":"0000-01-01T00:00:00Z"}}"#
            let answer = try RawConnection(path: fixture.socketPath).request(donation)
            #expect(answer?.errorCode == -32602, "a donation dated year 0000: \(answer ?? [:])")
        }

        static func hourlyTimeline(from start: String) -> String {
            let first = ISO8601DateFormatter().date(from: start)!
            let format = ISO8601DateFormatter()
            let entries = (0..<entries).map { hour in
                let date = format.string(from: first.addingTimeInterval(Double(hour) * 3600))
                return #"{"date":"\#(date)","content":{"hour":\#(hour)},"relevance":{"score":\#(hour % 7),"duration":600}}"#
            }
            return #"{"entries":[\#(entries.joined(separator: ","))],"policy":"never"}"#
        }

        static func waitForExit(_ fixture: DaemonFixture, within seconds: Double) -> Bool {
            let end = ContinuousClock.now + .seconds(seconds)
            while fixture.isRunning {
                if ContinuousClock.now >= end { return false }
                usleep(10_000)
            }
            return true
        }
    }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
