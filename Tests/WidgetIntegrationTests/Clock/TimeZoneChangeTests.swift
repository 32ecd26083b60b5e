import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Time zones (docs/smart-stacks.md): a time-zone change reaches donation affinity at
    /// once. widgetd runs in a mount namespace of its own (`unshare -m`) with an overlay on
    /// /etc, so the test can replace /etc/localtime as `timedatectl set-timezone` does (a new
    /// link renamed over the old) without touching the machine's. Root only.
    @Suite struct TimeZoneChange {
        static var unavailableReason: String? {
            guard geteuid() == 0 else { return "not root" }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
                FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter")
            else { return "no unshare or nsenter" }
            guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/America/Los_Angeles") else { return "no zoneinfo" }
            return nil
        }

        /// `unshare -m` with /etc overlaid and /etc/localtime linked to UTC, then exec widgetd.
        static func namespaceWrapper(_ fixture: DaemonFixture) throws -> [String] {
            let upper = fixture.directory + "/etc-upper"
            let work = fixture.directory + "/etc-work"
            for folder in [upper, work] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            let script = """
                set -e
                mount -t overlay overlay -o lowerdir=/etc,upperdir=\(upper),workdir=\(work) /etc
                ln -sfn /usr/share/zoneinfo/Etc/UTC /etc/localtime
                unset TZ TZFILE
                exec "$@"
                """
            return ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh"]
        }

        static func affinity(_ fixture: DaemonFixture, _ instance: String) -> Double? {
            let candidates = fixture.ctl("--json", "explain", "s").object["candidates"] as? [[String: Any]] ?? []
            return candidates.first { $0["instance"] as? String == instance }?["affinity"] as? Double
        }

        @Test func aZoneChangeMovesDonationAffinityAtOnce() throws {
            if let reason = Self.unavailableReason {
                print("time zone change: skipped (\(reason))")
                return
            }
            let fixture = try DaemonFixture()
            let intent: [String: Any] = [
                "type": "ShowTopic", "parameters": [["name": "topic", "type": "string"]], "supportedCombinations": [["topic"]],
            ]
            try fixture.descriptor("test.topic", exec: nil, intent: intent)
            // Monday 03:00 UTC, which is Sunday 19:00 in Los Angeles.
            try fixture.start(clock: "2026-01-05T03:00:00Z", wrapper: try Self.namespaceWrapper(fixture))
            guard let pid = fixture.pid else { throw FixtureError("no widgetd") }
            #expect(fixture.ctl("stack", "create", "s").status == 0)
            let news = try fixture.add("test.topic", "topic=news")
            let other = try fixture.add("test.topic", "topic=other")
            #expect(fixture.ctl("stack", "add", "s", other, news).status == 0)
            // Seen on the two Sundays before at 03:00 UTC: a weekend in UTC, Saturday evening
            // (also a weekend) in Los Angeles.
            for date in ["2025-12-28T03:00:00Z", "2026-01-04T03:00:00Z"] {
                #expect(fixture.ctl("donate", "ShowTopic", "--set", "topic=news", "--at", date).status == 0)
            }
            let inUTC = try #require(Self.affinity(fixture, news))

            // As timedatectl does it: a new link renamed over /etc/localtime, inside the namespace.
            let change = try fixture.launch(
                "/usr/bin/nsenter",
                ["-t", "\(pid)", "-m", "/bin/sh", "-c",
                 "ln -sfn /usr/share/zoneinfo/America/Los_Angeles /etc/.localtime.new && mv -T /etc/.localtime.new /etc/localtime"],
                log: fixture.directory + "/nsenter.log")
            change.waitUntilExit()
            #expect(change.terminationStatus == 0, "\((try? String(contentsOfFile: fixture.directory + "/nsenter.log", encoding: .utf8)) ?? "")")
            let clock = ContinuousClock()
            let begin = clock.now
            var inLosAngeles = inUTC
            while clock.now - begin < .seconds(20) {
                inLosAngeles = Self.affinity(fixture, news) ?? inUTC
                if inLosAngeles != inUTC { break }
                usleep(20_000)
            }
            print("time zone change: affinity of the donated topic \(inUTC) in UTC (weekday against weekend donations), "
                + "\(inLosAngeles) in America/Los_Angeles (both weekend), seen after \(clock.now - begin)")
            // The same donations, the same instant: only the day type changed (0.25 to 1).
            #expect(inLosAngeles > 2 * inUTC)
            #expect(fixture.log().contains("time zone changed"))
            #expect(fixture.log().contains("America/Los_Angeles"))
        }
        /// Writes elsewhere in /etc do not wake the zone watcher (it watches the link, not the
        /// folder), and each replacement of the link is seen, the second too (the watch moves
        /// to the new link).
        @Test func onlyTheLinkWakesTheWatcherAndEveryReplacementIsSeen() throws {
            if let reason = Self.unavailableReason {
                print("time zone change: skipped (\(reason))")
                return
            }
            let fixture = try DaemonFixture()
            try fixture.start(clock: "2026-01-05T03:00:00Z", wrapper: try Self.namespaceWrapper(fixture))
            guard let pid = fixture.pid else { throw FixtureError("no widgetd") }
            func inNamespace(_ script: String) throws {
                let run = try fixture.launch(
                    "/usr/bin/nsenter", ["-t", "\(pid)", "-m", "/bin/sh", "-c", script], log: fixture.directory + "/nsenter.log")
                run.waitUntilExit()
                #expect(run.terminationStatus == 0, "\(script)")
            }
            func zoneSwitches() -> Int {
                ThreadSwitches(pid).threads.values.filter { $0.name == "widgetd-zone" }.map(\.switches).reduce(0, +)
            }
            func changes() -> Int { fixture.log().components(separatedBy: "time zone changed").count - 1 }

            // Once the watcher has started and settled: the count holds still for half a second.
            var before = zoneSwitches()
            try Poll.until("the zone watcher to settle") {
                usleep(500_000)
                let now = zoneSwitches()
                defer { before = now }
                return now == before && ThreadSwitches(pid).threads.values.contains { $0.name == "widgetd-zone" }
            }
            try inNamespace("for i in 1 2 3; do echo $i > /etc/widgetd-test.conf; mv /etc/widgetd-test.conf /etc/widgetd-test.moved; done")
            usleep(200_000)
            #expect(zoneSwitches() == before, "the zone watcher woke for writes elsewhere in /etc")
            #expect(changes() == 0)

            for (zone, seen) in [("America/Los_Angeles", 1), ("Asia/Tokyo", 2)] {
                try inNamespace("ln -sfn /usr/share/zoneinfo/\(zone) /etc/.localtime.new && mv -T /etc/.localtime.new /etc/localtime")
                try Poll.until("the change to \(zone) in the log", within: 20) { changes() >= seen }
                #expect(fixture.log().contains(zone))
            }
        }
    }
}
