import Foundation
@testable import WidgetIntegrationSupport
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

extension Integration {
    /// `widgetctl simulate` against the real daemon: the rotations it foresees are the ones a
    /// second daemon on a copy of the state makes when its virtual clock runs the same day,
    /// simulating changes nothing, and the picture is well-formed and renders in Chromium.
    @Suite struct Simulate {
        static let start = "2026-01-05T08:00:00Z"

        /// Timeline JSON with entries at minutes after the start, each with a score (or none)
        /// and a duration in seconds.
        static func timeline(_ entries: [(minutes: Int, score: Double?, duration: Int)]) -> String {
            let start = ISO8601DateFormatter().date(from: Self.start)!
            let formatter = ISO8601DateFormatter()
            let items = entries.map { entry in
                let date = formatter.string(from: start.addingTimeInterval(Double(entry.minutes * 60)))
                let relevance = entry.score.map { #","relevance":{"score":\#($0),"duration":\#(entry.duration)}"# } ?? ""
                return #"{"date":"\#(date)","content":{"m":\#(entry.minutes)}\#(relevance)}"#
            }
            return #"{"entries":[\#(items.joined(separator: ","))],"policy":"never"}"#
        }

        /// Push-only kinds in two stacks (nothing reloads them, so a real run and the simulation
        /// see the same relevance), and a provider-backed counter whose reloads fill the schedule
        /// and the budget.
        static func prepare(_ fixture: DaemonFixture) throws {
            try fixture.descriptor("sim.push", exec: nil)
            try fixture.counterWidget()
        }

        static func populate(_ fixture: DaemonFixture) throws -> String {
            let ids = try (0..<5).map { _ in try fixture.add("sim.push") }
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "create", "work").status == 0)
            #expect(fixture.ctl("stack", "add", "home", ids[0], ids[1], ids[2]).status == 0)
            #expect(fixture.ctl("stack", "add", "work", ids[3], ids[4]).status == 0)
            let timelines = [
                timeline([(0, 5, 0), (240, 1, 0), (600, 5, 0)]),
                timeline([(0, 1, 0), (120, 10, 10800), (420, 2, 0)]),
                timeline([(0, nil, 0), (60, 3, 600), (720, 3, 0)]),
                // Alternating every ten minutes for two hours: the dwell holds some back.
                timeline((0..<13).map { ($0 * 10, $0 % 2 == 0 ? 1 : 0.1, 0) }),
                timeline((0..<13).map { ($0 * 10, $0 % 2 == 0 ? 0.1 : 1, 0) }),
            ]
            for (id, timeline) in zip(ids, timelines) {
                let pushed = fixture.ctl(["push", id, "-"], stdin: timeline)
                #expect(pushed.status == 0, "\(pushed.stderr)")
            }
            // Without relevance it never rotates in, and it reloads every five minutes in both runs
            // (the minimum spacing), so its stack is evaluated at the same instants.
            let counter = try fixture.add("test.counter")
            #expect(fixture.ctl("stack", "add", "work", counter).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            return counter
        }

        /// What `simulate` must leave as it was.
        static func readings(_ fixture: DaemonFixture, counter: String) -> [String] {
            [
                ["--json", "schedule"], ["--json", "stack", "show", "home"], ["--json", "stack", "show", "work"],
                ["--json", "budget", counter], ["--json", "list"], ["--json", "clock"],
            ].map { fixture.ctl($0).stdout }
        }

        static func decisions(_ items: [[String: Any]]) -> [String] {
            items.map { item in
                ["date", "stack", "from", "to", "reason"].map { item[$0] as? String ?? "-" }.joined(separator: " ")
            }
        }

        @Test func simulatedRotationsAreTheRealRunsAndSimulatingChangesNothing() throws {
            let first = try DaemonFixture()
            try Self.prepare(first)
            try first.start(clock: Self.start)
            let counter = try Self.populate(first)
            // Both daemons start from the same stored state at the same virtual instant.
            #expect(first.stop() == 0)
            let second = try DaemonFixture()
            try Self.prepare(second)
            try FileManager.default.copyItem(atPath: first.stateDirectory, toPath: second.stateDirectory)
            try first.start(clock: Self.start)
            try second.start(clock: Self.start)

            let before = Self.readings(first, counter: counter)
            let svg = first.directory + "/day.svg"
            let simulated = first.ctl("--json", "simulate", "--hours", "24", "--svg", svg)
            #expect(simulated.status == 0, "\(simulated.stderr)")
            #expect(Self.readings(first, counter: counter) == before)
            // Bad input: a clear error, and nothing changes.
            let refused = first.ctl("simulate", "--hours", "0")
            #expect(refused.status == 2 && refused.stderr.contains("--hours"), "\(refused.stderr)")
            let tooFar = first.ctl(["batch", "-"], stdin: #"[{"method":"simulate","params":{"hours":1000}}]"#)
            #expect(tooFar.status == 1 && (tooFar.stdout + tooFar.stderr).contains("params.hours"), "\(tooFar.stdout)")
            #expect(Self.readings(first, counter: counter) == before)
            let report = simulated.object
            let rotations = report["rotations"] as? [[String: Any]] ?? []
            #expect(rotations.allSatisfy { $0["date"] is String && $0["stack"] is String })
            let reasons = Set(rotations.compactMap { $0["reason"] as? String })
            #expect(reasons.isSuperset(of: ["betterCandidate", "heldByDwell"]), "\(reasons)")
            let reloads = report["reloads"] as? [[String: Any]] ?? []
            #expect(reloads.contains { $0["budget"] as? String == "budgeted" && $0["instance"] as? String == counter })
            #expect((report["counts"] as? [String: Any])?["entryChanges"] as? Int ?? 0 > 0)

            // The real day on the copy.
            let logged = second.ctl("--json", "log", "--limit", "100000").array.count
            let advanced = second.ctl("clock", "advance", "1d")
            #expect(advanced.status == 0, "\(advanced.stderr)")
            let real = Array(second.ctl("--json", "log", "--limit", "100000").array.dropFirst(logged))
            #expect(!real.isEmpty)
            #expect(Self.decisions(rotations) == Self.decisions(real))
            for stack in ["home", "work"] {
                let last = rotations.last { $0["stack"] as? String == stack && $0["to"] is String }?["to"] as? String
                #expect(second.ctl("--json", "stack", "show", stack).object["top"] as? String == last)
            }

            // A state directory simulated by widgetctl itself, read-only while widgetd runs on
            // it, gives the daemon's answer.
            let offline = first.ctl(
                "--json", "simulate", "--hours", "24", "--state", first.stateDirectory, "--widgets-dir", first.widgetsDirectory,
                "--at", Self.start)
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(Self.decisions(offline.object["rotations"] as? [[String: Any]] ?? []) == Self.decisions(rotations))
            #expect(Self.readings(first, counter: counter) == before)
            let none = first.ctl("simulate", "--state", first.directory + "/nowhere")
            #expect(none.status == 1 && none.stderr.contains("no state database at"), "\(none.stderr)")
            let alone = first.ctl("simulate", "--at", Self.start)
            #expect(alone.status == 2 && alone.stderr.contains("go with --state"), "\(alone.stderr)")

            try Self.checkPicture(svg, in: first.directory)
        }

        /// `--run-providers`: each simulated reload asks the real provider with its simulated date
        /// as `now`, so the entries the simulation shows are the ones the provider gives then;
        /// a failing provider is a failed reload; the state is as it was.
        @Test func runProvidersAsksTheProvidersAtTheSimulatedDates() throws {
            let fixture = try DaemonFixture()
            defer { fixture.stop() }
            let asked = fixture.directory + "/asked.log"
            // Two entries naming the request's now, at it and half an hour later; the next reload
            // an hour later.
            try fixture.provider("stamp", """
                #!/bin/sh
                request=$(cat)
                now=$(printf '%s' "$request" | sed -n 's/.*"now":"\\([^"]*\\)".*/\\1/p')
                echo "$now" >> "$1"
                t=$(date -u -d "$now" +%s)
                at=$(date -u -d "@$t" +%Y-%m-%dT%H:%M:%SZ)
                half=$(date -u -d "@$(( t + 1800 ))" +%Y-%m-%dT%H:%M:%SZ)
                next=$(date -u -d "@$(( t + 3600 ))" +%Y-%m-%dT%H:%M:%SZ)
                printf '{"entries":[{"date":"%s","content":{"asked":"%s"}},{"date":"%s","content":{"asked":"%s","half":true}}],"policy":{"after":"%s"}}\\n' "$at" "$at" "$half" "$at" "$next"
                """)
            try fixture.provider("broken", "#!/bin/sh\nexit 3\n")
            try fixture.descriptor("sim.stamp", exec: ["./stamp", asked])
            try fixture.descriptor("sim.broken", exec: ["./broken"])
            try fixture.start(clock: Self.start)
            let stamp = try fixture.add("sim.stamp")
            let broken = try fixture.add("sim.broken")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            let readings = { [["--json", "schedule"], ["--json", "list"], ["--json", "timeline", stamp], ["--json", "clock"]].map { fixture.ctl($0).stdout } }
            let before = readings()
            let askedBefore = (try? String(contentsOfFile: asked, encoding: .utf8)) ?? ""
            #expect(askedBefore.split(separator: "\n").count == 1, "\(askedBefore)")

            let held = fixture.ctl("--json", "simulate", "--hours", "3.75")
            #expect(held.status == 0, "\(held.stderr)")
            let ran = fixture.ctl("--json", "simulate", "--hours", "3.75", "--run-providers")
            #expect(ran.status == 0, "\(ran.stderr)")
            #expect(readings() == before)

            // The provider was asked at each simulated hour, with that hour as now.
            let lines = ((try? String(contentsOfFile: asked, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            let hours = ["09", "10", "11"].map { "2026-01-05T\($0):00:00" }
            #expect(lines.count == 4, "\(lines)")
            #expect(zip(lines.dropFirst(), hours).allSatisfy { $0.hasPrefix($1) }, "\(lines)")

            // Held, the 08:00 timeline is answered again, so only its 08:30 entry comes; run, each
            // answer brings the half-hour entry of its own hour.
            func changes(_ report: [String: Any]) -> [String] {
                (report["entryChanges"] as? [[String: Any]] ?? []).filter { $0["instance"] as? String == stamp }
                    .compactMap { $0["date"] as? String }
            }
            let halves = ["08", "09", "10", "11"].map { "2026-01-05T\($0):30:00" }
            #expect(changes(held.object).count == 1 && changes(held.object).first?.hasPrefix(halves[0]) == true, "\(changes(held.object))")
            let ranChanges = changes(ran.object)
            #expect(ranChanges.count == 4 && zip(ranChanges, halves).allSatisfy { $0.hasPrefix($1) }, "\(ranChanges)")
            let counts = ran.object["counts"] as? [String: Any] ?? [:]
            #expect(counts["providerLaunches"] as? Int ?? 0 >= 4)
            #expect(counts["failed"] as? Int ?? 0 >= 1)
            let reloads = ran.object["reloads"] as? [[String: Any]] ?? []
            #expect(reloads.contains { $0["instance"] as? String == broken && ($0["error"] as? String ?? "").contains("3") }, "\(reloads)")
            #expect(!reloads.contains { $0["instance"] as? String == stamp && $0["error"] != nil })
            #expect((held.object["counts"] as? [String: Any])?["providerLaunches"] as? Int == 0)

            // The table says so too; with --state there is no daemon to run them.
            let table = fixture.ctl("simulate", "--hours", "1", "--run-providers")
            #expect(table.status == 0 && table.stdout.contains("provider launches"), "\(table.stdout)\(table.stderr)")
            let offline = fixture.ctl("simulate", "--state", fixture.stateDirectory, "--run-providers")
            #expect(offline.status == 2 && offline.stderr.contains("--run-providers"), "\(offline.stderr)")
            #expect(readings() == before)
        }

        /// Well-formed XML with the bands, and rendered by Chromium to a PNG of the picture's
        /// size that is not blank. With `WIDGETD_PICTURE_DIR` set, the PNG is copied there
        /// (how docs/images/simulate.png is made).
        static func checkPicture(_ svg: String, in directory: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: svg))
            let parser = XMLParser(data: data)
            #expect(parser.parse(), "the SVG does not parse: \(parser.parserError.map { "\($0)" } ?? "")")
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains(">home</text>") && text.contains(">work</text>") && text.contains(">Legend</text>"))
            let height = try #require(
                text.firstMatch(of: /height="([0-9.]+)"/).flatMap { Double($0.1) }, "the SVG has no height")

            #expect(ChromiumShot.isInstalled, "chromium is not installed (scripts/setup installs it)")
            guard ChromiumShot.isInstalled else { return }
            let png = directory + "/day.png"
            let rendered = ChromiumShot.render(
                svg, to: png, width: 1200, height: Int(height.rounded(.up)), profile: directory + "/chromium")
            #expect(rendered.status == 0, "chromium failed: \(rendered.stderr)")
            let image = try Data(contentsOf: URL(fileURLWithPath: png))
            let size = try #require(ChromiumShot.size(ofPNG: image), "chromium wrote no PNG")
            #expect(size.width == 1200 && size.height == Int(height.rounded(.up)))
            // A blank page of that size compresses to a few hundred bytes.
            #expect(image.count > 10_000, "the PNG is \(image.count) bytes: nothing drawn?")
            if let keep = ProcessInfo.processInfo.environment["WIDGETD_PICTURE_DIR"] {
                try? FileManager.default.removeItem(atPath: keep + "/simulate.png")
                try FileManager.default.copyItem(atPath: png, toPath: keep + "/simulate.png")
            }
        }
    }
}
