import Foundation
import Synchronization
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// `[limits]` on the real daemon with small limits: each one hit through the real
    /// `widgetctl` or a raw socket, with the precise -32014 error, nothing changed, and the
    /// daemon still answering `ping` and `status` and serving a connection opened before.
    @Suite struct Limits {
        static var intent: [String: Any] { [
            "type": "LimitCity", "parameters": [["name": "city", "type": "string"]], "supportedCombinations": [["city"]],
        ] }

        /// A daemon on the virtual clock with `config` as its widgetd.conf and a push-only kind
        /// `test.limited` (plus whatever `widgets` writes).
        static func start(_ config: String, widgets: (DaemonFixture) throws -> Void = { _ in }) throws -> DaemonFixture {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.limited", exec: nil, intent: intent)
            try widgets(fixture)
            try writeConfig(config, for: fixture)
            try fixture.start(arguments: ["--config", configPath(fixture)])
            return fixture
        }

        /// `widgetctl add test.limited --stack NAME`, returning the new id.
        static func add(_ fixture: DaemonFixture, stack: String, _ settings: String...) throws -> String {
            let result = fixture.ctl(
                ["--json", "add", "test.limited", "--family", "systemSmall", "--stack", stack] + settings.flatMap { ["--set", $0] })
            guard result.status == 0, let id = result.object["id"] as? String else {
                throw FixtureError("add --stack failed (\(result.status)): \(result.stderr)")
            }
            return id
        }

        static func configPath(_ fixture: DaemonFixture) -> String { fixture.directory + "/widgetd.conf" }

        static func writeConfig(_ text: String, for fixture: DaemonFixture) throws {
            try text.write(toFile: configPath(fixture), atomically: true, encoding: .utf8)
        }

        /// One raw request; the answer object.
        static func call(_ connection: RawConnection, _ method: String, _ params: [String: Any]) -> [String: Any] {
            let request: [String: Any] = ["jsonrpc": "2.0", "id": 1, "method": method, "params": params]
            let line = String(decoding: try! JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]), as: UTF8.self)
            return connection.request(line) ?? [:]
        }

        static func errorData(_ answer: [String: Any]) -> [String: Any] {
            (answer["error"] as? [String: Any])?["data"] as? [String: Any] ?? [:]
        }

        /// The daemon still serves: a new client, and the connection opened before the refusals.
        static func expectHealthy(_ fixture: DaemonFixture, _ early: RawConnection) {
            #expect(fixture.ctl("ping").status == 0)
            #expect(fixture.ctl("status").status == 0)
            #expect(early.request(#"{"jsonrpc":"2.0","id":"still","method":"ping"}"#)?["id"] as? String == "still")
        }

        /// A Timeline JSON of `count` entries a minute apart with content of `bytes` bytes.
        static func timeline(_ count: Int, bytes: Int = 20, tag: String = "t") -> String {
            let entries = (0..<count).map { index in
                // {"f":"xx","t":0}: 13 bytes and the tag around the filler (indexes 0...9).
                let filler = String(repeating: "x", count: max(0, bytes - 13 - tag.count))
                return #"{"date":"2026-01-05T08:0\#(index % 10):00Z","content":{"\#(tag)":\#(index),"f":"\#(filler)"}}"#
            }
            return #"{"entries":[\#(entries.joined(separator: ","))],"policy":"never"}"#
        }

        @Test func instancesStacksAndStackSizeAreRefusedPastTheirLimits() throws {
            let fixture = try Self.start("""
                [limits]
                max-instances = 3
                max-stacks = 2
                max-stack-size = 2
                """)
            let early = try RawConnection(path: fixture.socketPath)
            let ids = try (0..<3).map { _ in try fixture.add("test.limited", "city=paris") }

            // max-instances: widgetctl says why and exits 1; the raw answer carries the data.
            let refused = fixture.ctl("add", "test.limited", "--family", "systemSmall")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("limit exceeded: 3 instances (max-instances in [limits] of widgetd.conf)"), "\(refused.stderr)")
            let raw = try RawConnection(path: fixture.socketPath)
            let answer = Self.call(raw, "add", ["kind": "test.limited", "family": "systemSmall"])
            #expect(answer.errorCode == -32014)
            #expect(Self.errorData(answer)["limit"] as? String == "max-instances")
            #expect(Self.errorData(answer)["max"] as? Int == 3)
            #expect(fixture.ctl("--json", "list").array.count == 3)

            // max-stacks.
            #expect(fixture.ctl("stack", "create", "one").status == 0)
            #expect(fixture.ctl("stack", "create", "two").status == 0)
            let third = Self.call(raw, "stack.create", ["name": "three"])
            #expect(third.errorCode == -32014)
            #expect(third.errorMessage == "limit exceeded: 2 stacks (max-stacks in [limits] of widgetd.conf)")
            #expect(Self.errorData(third)["limit"] as? String == "max-stacks")
            #expect(fixture.ctl("--json", "stack", "list").array.compactMap { $0["name"] as? String } == ["one", "two"])

            // max-stack-size, through stack.add and add --stack; neither changes anything.
            #expect(fixture.ctl("stack", "add", "one", ids[0], ids[1]).status == 0)
            let crowded = fixture.ctl("stack", "add", "one", ids[2])
            #expect(crowded.status == 1)
            #expect(crowded.stderr.contains("limit exceeded: 2 instances in stack 'one' (max-stack-size in [limits] of widgetd.conf)"))
            #expect(fixture.ctl("--json", "stack", "show", "one").object["instances"] as? [String] == [ids[0], ids[1]])
            #expect(fixture.ctl("remove", ids[2]).status == 0)
            let addToFull = Self.call(raw, "add", ["kind": "test.limited", "family": "systemSmall", "stack": "one"])
            #expect(addToFull.errorCode == -32014)
            #expect(Self.errorData(addToFull)["limit"] as? String == "max-stack-size")
            #expect(fixture.ctl("--json", "list").array.count == 2)

            // Room again once one is removed.
            #expect(try fixture.add("test.limited").count == 8)
            Self.expectHealthy(fixture, early)

            // After a restart the same limits hold.
            fixture.crash()
            try fixture.start(arguments: ["--config", Self.configPath(fixture)])
            #expect(Self.call(try RawConnection(path: fixture.socketPath), "add", ["kind": "test.limited", "family": "systemSmall"]).errorCode == -32014)
            #expect(fixture.ctl("--json", "list").array.count == 3)
        }

        /// Requests that arrive together at the limit: exactly the limit gets in, whatever the
        /// order the store commits them in.
        @Test func aBurstAtTheLimitStopsExactlyAtIt() throws {
            let fixture = try Self.start("""
                [limits]
                max-instances = 50
                max-donations = 40
                """)
            let early = try RawConnection(path: fixture.socketPath)
            let socket = fixture.socketPath
            let base = ISO8601DateFormatter().date(from: "2026-01-04T09:00:00Z")!
            let tally = Mutex<[String: Int]>([:])
            let started = Date()
            DispatchQueue.concurrentPerform(iterations: 8) { lane in
                guard let connection = try? RawConnection(path: socket) else {
                    tally.withLock { $0["no connection", default: 0] += 1 }
                    return
                }
                for index in 0..<20 {
                    let added = Self.call(connection, "add", ["kind": "test.limited", "family": "systemSmall"])
                    let date = ISO8601DateFormatter().string(from: base.addingTimeInterval(Double(lane * 20 + index) * 60))
                    let donated = Self.call(
                        connection, "donate",
                        ["intentType": "LimitCity", "parameters": ["city": "paris"], "id": "l\(lane)-\(index)", "date": date])
                    tally.withLock { counts in
                        for (name, answer) in [("add", added), ("donate", donated)] {
                            let outcome = answer["result"] != nil ? "ok" : answer.errorCode.map { "\($0)" } ?? "no answer"
                            counts["\(name) \(outcome)", default: 0] += 1
                        }
                    }
                }
            }
            let seconds = Date().timeIntervalSince(started)
            let counts = tally.withLock { $0 }
            #expect(counts == ["add ok": 50, "add -32014": 110, "donate ok": 160], "\(counts)")
            #expect(fixture.ctl("--json", "list").array.count == 50)
            // On disk and in memory: the newest 40 by date, those of lanes 6 and 7.
            let expected = (6..<8).flatMap { lane in (0..<20).map { "l\(lane)-\($0)" } }.sorted()
            #expect(Self.storedDonations(fixture) == expected)
            Self.expectHealthy(fixture, early)
            #expect(fixture.ctl("--json", "donations", "delete", "--all").object["deleted"] as? Int == 40)
            print("limits: burst of 160 adds and 160 donations on 8 connections in \(String(format: "%.2f", seconds)) s: "
                + "\(counts["add ok"] ?? 0) added, \(counts["add -32014"] ?? 0) refused (max-instances = 50), 40 donations retained")
        }

        @Test func aPushedTimelineOverTheEntryLimitsIsRefusedWhole() throws {
            let fixture = try Self.start("""
                [limits]
                max-entries = 3
                max-entry-bytes = 64
                """)
            let early = try RawConnection(path: fixture.socketPath)
            let id = try fixture.add("test.limited")
            #expect(fixture.ctl(["push", id, "-"], stdin: Self.timeline(3, bytes: 64, tag: "first")).status == 0)

            let tooMany = fixture.ctl(["push", id, "-"], stdin: Self.timeline(4))
            #expect(tooMany.status == 1)
            #expect(tooMany.stderr.contains(
                "limit exceeded: a timeline of 4 entries, over 3 (max-entries in [limits] of widgetd.conf)"), "\(tooMany.stderr)")
            let raw = try RawConnection(path: fixture.socketPath)
            let timeline = try JSONSerialization.jsonObject(with: Data(Self.timeline(2, bytes: 65).utf8))
            let tooBig = Self.call(raw, "push", ["id": id, "timeline": timeline])
            #expect(tooBig.errorCode == -32014)
            #expect(tooBig.errorMessage == "limit exceeded: entry 0 has 65 bytes of content, over 64 (max-entry-bytes in [limits] of widgetd.conf)")
            let data = Self.errorData(tooBig)
            #expect(data["limit"] as? String == "max-entry-bytes" && data["max"] as? Int == 64 && data["actual"] as? Int == 65)
            #expect(data["entry"] as? Int == 0)

            // The first timeline is still the one shown, also after a restart.
            func contents() -> [String] {
                let entries = fixture.ctl("--json", "timeline", id).object["entries"] as? [[String: Any]] ?? []
                return entries.map { ($0["content"] as? [String: Any])?.keys.sorted().joined(separator: ",") ?? "" }
            }
            #expect(contents() == ["f,first", "f,first", "f,first"])
            Self.expectHealthy(fixture, early)
            fixture.crash()
            try fixture.start(arguments: ["--config", Self.configPath(fixture)])
            #expect(contents() == ["f,first", "f,first", "f,first"])
        }

        @Test func aProviderTimelineOverTheLimitsFailsAndThePreviousOneStays() throws {
            let fixture = try Self.start("""
                [limits]
                max-entries = 3
                max-entry-bytes = 64
                """) { fixture in
                let mode = fixture.directory + "/mode"
                try fixture.provider("limited-provider", """
                    #!/bin/sh
                    cat > /dev/null
                    case "$(cat "\(mode)" 2>/dev/null)" in
                    many) printf '%s\\n' '\(Self.timeline(5))' ;;
                    fat) printf '%s\\n' '\(Self.timeline(1, bytes: 200))' ;;
                    *) printf '%s\\n' '\(Self.timeline(2, tag: "good"))' ;;
                    esac
                    """)
                try fixture.descriptor("test.limited-provider", exec: ["./limited-provider"])
            }
            let mode = fixture.directory + "/mode"
            let id = try fixture.add("test.limited-provider")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            func state() -> (entries: Int, error: String?) {
                let object = fixture.ctl("--json", "timeline", id).object
                return ((object["entries"] as? [Any])?.count ?? -1, object["lastError"] as? String)
            }
            #expect(state().entries == 2 && state().error == nil)

            try "many".write(toFile: mode, atomically: true, encoding: .utf8)
            #expect(fixture.ctl("reload", "test.limited-provider", "--user-initiated").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(state().entries == 2)
            #expect(state().error == "limit exceeded: a timeline of 5 entries, over 3 (max-entries in [limits] of widgetd.conf)")

            // The retry after the minimum spacing meets the other limit.
            try "fat".write(toFile: mode, atomically: true, encoding: .utf8)
            #expect(fixture.ctl("clock", "advance", "6m").status == 0)
            #expect(state().entries == 2)
            #expect(state().error?.hasPrefix("limit exceeded: entry 0 has 200 bytes of content, over 64 (max-entry-bytes") == true)

            // Logged with the cause, like any bad answer.
            let failures = fixture.log().split(separator: "\n").filter { $0.contains("provider failed") }
            #expect(failures.contains { $0.contains("a timeline of 5 entries, over 3 (max-entries") })
            #expect(failures.contains { $0.contains("entry 0 has 200 bytes of content, over 64 (max-entry-bytes") })
            #expect(fixture.ctl("ping").status == 0)
        }

        @Test func donationsKeepTheNewestByDateAlsoAfterSIGKILL() throws {
            let fixture = try Self.start("""
                [limits]
                max-donations = 3
                """)
            let early = try RawConnection(path: fixture.socketPath)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            _ = try Self.add(fixture, stack: "home", "city=paris")
            // dN is dated N days after 2025-12-28; given out of date order.
            for day in [4, 1, 6, 2, 5, 3] {
                let done = fixture.ctl("donate", "LimitCity", "--set", "city=paris", "--at", Self.date(day), "--id", "d\(day)")
                #expect(done.status == 0, "\(done.stderr)")
            }
            func stored() -> [String] { Self.storedDonations(fixture) }
            func contributing() -> [String] {
                let candidates = fixture.ctl("--json", "explain", "home").object["candidates"] as? [[String: Any]] ?? []
                return (candidates.first?["donations"] as? [String] ?? []).sorted()
            }
            #expect(stored() == ["d4", "d5", "d6"])
            #expect(contributing() == ["d4", "d5", "d6"])
            Self.expectHealthy(fixture, early)

            fixture.crash()
            try fixture.start(arguments: ["--config", Self.configPath(fixture)])
            #expect(stored() == ["d4", "d5", "d6"])
            #expect(contributing() == ["d4", "d5", "d6"])

            // A lower limit applies at start: in memory at once, on disk soon after.
            fixture.crash()
            try Self.writeConfig("[limits]\nmax-donations = 2\n", for: fixture)
            try fixture.start(arguments: ["--config", Self.configPath(fixture)])
            #expect(contributing() == ["d5", "d6"])
            let deadline = Date().addingTimeInterval(30)
            while stored() != ["d5", "d6"], Date() < deadline { usleep(100_000) }
            #expect(stored() == ["d5", "d6"])
        }

        static func date(_ day: Int) -> String {
            let base = ISO8601DateFormatter().date(from: "2025-12-28T09:00:00Z")!
            return ISO8601DateFormatter().string(from: base.addingTimeInterval(Double(day) * 86400))
        }

        /// Donation ids as the state file holds them, sorted.
        static func storedDonations(_ fixture: DaemonFixture) -> [String] {
            (try? StateSQL.rows(fixture.stateDirectory + "/state.sqlite", "SELECT id FROM donation ORDER BY id")) ?? ["sqlite3 failed"]
        }

        @Test func theRotationLogKeepsTheNewestRows() throws {
            let fixture = try Self.start("""
                [rotation]
                min-dwell = 0
                hourly-cap = 3600
                [limits]
                max-log-rows = 10
                """)
            #expect(fixture.ctl("stack", "create", "flip").status == 0)
            let a = try Self.add(fixture, stack: "flip")
            let b = try Self.add(fixture, stack: "flip")
            // Scores that swap every minute: each minute the other one ranks best.
            func flipping(_ first: Double) -> String {
                let entries = (0..<30).map { minute in
                    let score = (minute % 2 == 0) == (first > 1) ? 10 : 1
                    let date = ISO8601DateFormatter().string(from: ISO8601DateFormatter().date(from: DaemonFixture.virtualStart)!.addingTimeInterval(Double(minute) * 60))
                    return #"{"date":"\#(date)","content":{},"relevance":{"score":\#(score)}}"#
                }
                return #"{"entries":[\#(entries.joined(separator: ","))],"policy":"never"}"#
            }
            #expect(fixture.ctl(["push", a, "-"], stdin: flipping(10)).status == 0)
            #expect(fixture.ctl(["push", b, "-"], stdin: flipping(1)).status == 0)
            #expect(fixture.ctl("clock", "advance", "40m").status == 0)

            let decided = fixture.log().split(separator: "\n").filter { $0.contains("stack rotated") }.count
            #expect(decided > 20, "only \(decided) rotations")
            let log = fixture.ctl("--json", "log", "--limit", "1000").array
            #expect(log.count == 10)
            // The newest ten: the last rotation is among them.
            #expect(log.last?["date"] as? String == "2026-01-05T08:29:00Z")
            #expect(try StateSQL.rows(fixture.stateDirectory + "/state.sqlite", "SELECT count(*) FROM decision") == ["10"])
            print("limits: \(decided) rotations decided, \(log.count) kept in the log (max-log-rows = 10)")
        }

        @Test func aConnectionPastTheLimitGetsOneErrorLineAndTheOthersGoOn() throws {
            let fixture = try Self.start("""
                [limits]
                max-connections = 4
                """)
            var open = try (0..<4).map { _ in try RawConnection(path: fixture.socketPath) }
            for (index, connection) in open.enumerated() {
                #expect(connection.request(#"{"jsonrpc":"2.0","id":\#(index),"method":"ping"}"#)?["result"] != nil)
            }

            // The fifth, and a burst after it: each gets the error line (id null), then the close.
            for _ in 0..<20 {
                let extra = try RawConnection(path: fixture.socketPath)
                let line = extra.readLine() ?? ""
                let answer = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
                #expect(answer.errorCode == -32014, "\(line)")
                #expect(answer["id"] is NSNull)
                #expect(answer.errorMessage == "limit exceeded: 4 open connections (max-connections in [limits] of widgetd.conf)")
                #expect(Self.errorData(answer)["limit"] as? String == "max-connections" && Self.errorData(answer)["max"] as? Int == 4)
                #expect(extra.readLine() == nil)
            }
            // widgetctl says so too, with exit status 1 (the daemon answered).
            let refused = fixture.ctl("ping")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("limit exceeded: 4 open connections"), "\(refused.stderr)")

            // The four already open are served as before.
            for connection in open {
                #expect(connection.request(#"{"jsonrpc":"2.0","id":"again","method":"status"}"#)?["result"] != nil)
            }
            // Logged once for the burst, with the count.
            let logged = fixture.log().split(separator: "\n").filter { $0.contains("connection refused: max-connections reached") }
            #expect(logged.count == 1, "\(logged)")

            // One closes: a new client gets in (the daemon notices the close soon, not at once).
            open.removeFirst()
            let closed = Date()
            let deadline = Date().addingTimeInterval(30)
            var status = fixture.ctl("status")
            while status.status != 0, Date() < deadline {
                usleep(50_000)
                status = fixture.ctl("status")
            }
            #expect(status.status == 0)
            #expect(open.count == 3)
            print("limits: max-connections = 4: 21 connections refused with -32014 (\(logged.count) log line), "
                + "the 4 open ones served, a new one admitted \(String(format: "%.2f", Date().timeIntervalSince(closed))) s after one closed")
        }
    }
}
