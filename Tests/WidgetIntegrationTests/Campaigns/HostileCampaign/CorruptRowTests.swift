import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// A stored row that does not decode is
    /// left out and reported (its instance shown as failed) instead of stopping the start; a
    /// start that fails leaves the file byte for byte; exit statuses are the documented ones.
    @Suite struct HostileCorruptRow {
        static let pushed = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"v":"PUSHED"}}],"policy":"never"}"#
        static let leftOut = "stored row does not decode, left as it is"

        var database: (DaemonFixture) -> String { { $0.stateDirectory + "/state.sqlite" } }

        static func instances(_ fixture: DaemonFixture) -> [String: [String: Any]] {
            Dictionary(fixture.ctl("--json", "list").array.map { ($0["id"] as? String ?? "", $0) }) { first, _ in first }
        }

        /// Starts widgetd on the fixture's paths with `extra` arguments and waits for it to give
        /// up: its exit status and what it logged.
        static func failedStart(
            _ fixture: DaemonFixture, _ label: String, _ extra: [String] = [], stateDirectory: String? = nil
        ) throws -> (status: Int32, log: String) {
            let logPath = fixture.directory + "/failed-start.log"
            unlink(logPath)
            let process = try fixture.launch(
                TestPaths.widgetd,
                ["--socket", fixture.socketPath, "--state-dir", stateDirectory ?? fixture.stateDirectory,
                 "--widgets-dir", fixture.widgetsDirectory, "--log-target", "stderr", "--clock", "virtual:" + DaemonFixture.virtualStart]
                    + extra,
                log: logPath)
            process.waitUntilExit(within: 60)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            print("corrupt row: \(label): exit \(process.terminationStatus): \(log.trimmingCharacters(in: .whitespacesAndNewlines).suffix(400))")
            return (process.terminationStatus, log)
        }

        @Test func aRowThatDoesNotDecodeIsQuarantinedAndTheDaemonServes() throws {
            let fixture = try DaemonFixture()
            defer { fixture.crash() }
            try fixture.counterWidget()
            try fixture.descriptor("test.pushed", exec: nil, intent: DaemonFixture.testIntent)
            try fixture.start()
            let badConfiguration = try fixture.add("test.counter", "slot=1")
            let badEntry = try fixture.add("test.pushed", "slot=2")
            let counter = try fixture.add("test.counter", "slot=3")
            let pushed = try fixture.add("test.pushed", "slot=4")
            for id in [badEntry, pushed] { #expect(fixture.ctl(["push", id, "-"], stdin: Self.pushed).status == 0) }
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)  // the counters' first timelines
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", counter, pushed).status == 0)
            #expect(fixture.ctl("stack", "create", "bad").status == 0)
            for slot in ["1", "3"] { #expect(fixture.ctl("donate", "TestConfiguration", "--set", "slot=" + slot).status == 0) }
            let acknowledged = Self.instances(fixture)
            let timelines = [counter, pushed].map { fixture.ctl("--json", "timeline", $0).stdout }
            #expect(fixture.stop() == 0)

            // Damage that SQLite cannot see: integrity_check still says ok.
            let database = self.database(fixture)
            try StateSQL.run(database, """
                UPDATE instance SET configuration = '{x' WHERE id = '\(badConfiguration)';
                UPDATE entry SET content = '{"v": tru' WHERE instance = '\(badEntry)' AND position = 0;
                UPDATE stack SET state = '{"name": "bad", "instances": 7}' WHERE name = 'bad';
                UPDATE donation SET json = '{"intentType": "TestConfiguration", "parameters": {' WHERE rowid = (SELECT min(rowid) FROM donation);
                """)
            #expect(try StateSQL.run(database, "PRAGMA integrity_check;", readOnly: true) == "ok")
            let damaged = try StateSQL.rows(database, """
                SELECT configuration FROM instance WHERE id = '\(badConfiguration)'
                UNION ALL SELECT content FROM entry WHERE instance = '\(badEntry)' AND position = 0
                UNION ALL SELECT state FROM stack WHERE name = 'bad'
                UNION ALL SELECT json FROM donation WHERE rowid = (SELECT min(rowid) FROM donation);
                """)

            try fixture.start()
            // The daemon serves, the damaged instances listed as failed with why, the others as acknowledged.
            #expect(fixture.ctl("ping").status == 0)
            let listed = Self.instances(fixture)
            #expect(Set(listed.keys) == Set(acknowledged.keys))
            for (id, table) in [(badConfiguration, "instance"), (badEntry, "entry")] {
                let failure = listed[id]?["failure"] as? String ?? ""
                print("corrupt row: \(id) listed as failed: \(failure)")
                #expect(failure.hasPrefix("stored row does not decode: \(table) "), "\(id): \(failure)")
            }
            for id in [counter, pushed] {
                #expect(listed[id]?["failure"] == nil)
                #expect("\(listed[id]?["configuration"] ?? "")" == "\(acknowledged[id]?["configuration"] ?? "")")
                #expect(listed[id]?["hasTimeline"] as? Bool == true)
            }
            #expect([counter, pushed].map { fixture.ctl("--json", "timeline", $0).stdout } == timelines)
            let human = fixture.ctl("list").stdout
            #expect(human.contains("failed: stored row does not decode: instance"), "\(human)")
            let timeline = fixture.ctl("timeline", badEntry)
            #expect(timeline.status == 0 && timeline.stdout.contains("failed: stored row does not decode: entry"), "\(timeline.stdout)")
            #expect(fixture.ctl("--json", "timeline", badEntry).object["lastError"] as? String != nil)
            let status = fixture.ctl("--json", "status").object
            #expect(status["failedInstances"] as? Int == 2)
            #expect(status["rowsLeftOut"] as? Int == 4)
            #expect(fixture.ctl("status").stdout.contains("2 failed: a stored row does not decode"))
            // The stack and the donation that do not decode are left out; the rest is there.
            #expect(fixture.ctl("--json", "stack", "list").array.compactMap { $0["name"] as? String } == ["home"])
            let donations = fixture.ctl("--json", "donations", "list")
            #expect(donations.status == 0)
            let donationCount = (donations.json as? [Any])?.count ?? (donations.object["donations"] as? [Any])?.count
            #expect(donationCount == 1, "\(donations.stdout)")

            // Logged once each, with the table, the row's key and what to do.
            let lines = fixture.logLines(containing: Self.leftOut)
            for line in lines { print("corrupt row: log: \(line)") }
            #expect(lines.count == 4)
            #expect(fixture.logLines(containing: Self.leftOut, "table=instance", "id = '\(badConfiguration)'", "widgetctl remove \(badConfiguration)", "sqlite3 \(database)").count == 1)
            #expect(fixture.logLines(containing: Self.leftOut, "table=entry", "instance = '\(badEntry)'", "widgetctl remove \(badEntry)").count == 1)
            #expect(fixture.logLines(containing: Self.leftOut, "table=stack", "name = 'bad'", "stack create").count == 1)
            #expect(fixture.logLines(containing: Self.leftOut, "table=donation", "rowid = ").count == 1)

            // A failed instance is not run and cannot be changed; its rows stay as they were.
            let configure = fixture.ctl("configure", badConfiguration, "--set", "slot=9")
            #expect(configure.status == 1 && configure.stderr.contains("is not loaded"), "\(configure.stderr)")
            #expect(fixture.ctl(["push", badEntry, "-"], stdin: Self.pushed).status == 1)
            #expect(fixture.ctl("clock", "advance", "10m").status == 0)
            #expect(fixture.ctl("reload", "test.counter").status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(try StateSQL.rows(database, """
                SELECT configuration FROM instance WHERE id = '\(badConfiguration)'
                UNION ALL SELECT content FROM entry WHERE instance = '\(badEntry)' AND position = 0
                UNION ALL SELECT state FROM stack WHERE name = 'bad'
                UNION ALL SELECT json FROM donation WHERE rowid = (SELECT min(rowid) FROM donation);
                """, readOnly: true) == damaged)

            // Removing it removes its rows; nothing else changes.
            #expect(fixture.ctl("remove", badConfiguration).status == 0)
            #expect(Self.instances(fixture)[badConfiguration] == nil)
            #expect(try StateSQL.run(database, "SELECT count(*) FROM instance WHERE id = '\(badConfiguration)';", readOnly: true) == "0")
            #expect(fixture.stop() == 0)
            try fixture.start()
            let restarted = Self.instances(fixture)
            #expect(Set(restarted.keys) == Set([badEntry, counter, pushed]))
            #expect(restarted[badEntry]?["failure"] != nil)
        }

        /// Every way a start can fail after the state is read leaves the file byte for byte:
        /// nothing is opened for writing until nothing else can stop the start.
        @Test func aStartThatFailsLeavesTheFileByteForByte() throws {
            let fixture = try DaemonFixture()
            defer { fixture.crash() }
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            for _ in 0..<5 {
                let id = try fixture.add("test.pushed")
                #expect(fixture.ctl(["push", id, "-"], stdin: Self.pushed).status == 0)
            }
            #expect(fixture.stop() == 0)
            let database = self.database(fixture)
            let pristine = try CorruptRowFile(database)

            // Bad [remote] settings are found after the state is read and the socket bound.
            let config = fixture.directory + "/remote.conf"
            try "[remote]\nbroker = \"mqtt+unix:///nonexistent/broker.sock\"\nuser = widgetd-no-such-user\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let remote = try Self.failedStart(fixture, "bad [remote] user", ["--config", config])
            #expect(remote.status == 78)
            let afterRemote = try CorruptRowFile(database)
            #expect(afterRemote == pristine, "\(pristine.difference(from: afterRemote))")

            // Another widgetd on the socket: exit 1, and this one's state untouched meanwhile.
            try fixture.start()
            let running = try CorruptRowFile(database)
            let taken = try Self.failedStart(fixture, "socket taken")
            #expect(taken.status == 1)
            let afterTaken = try CorruptRowFile(database)
            #expect(afterTaken == running, "\(running.difference(from: afterTaken))")

            // After a crash the -wal holds committed changes: a failed start reads them and
            // leaves both files as they were (the next good start recovers them).
            let crashedID = try fixture.add("test.pushed")
            fixture.crash()
            let crashed = try CorruptRowFile(database)
            #expect(!crashed.wal.isEmpty)
            let afterCrash = try Self.failedStart(fixture, "bad [remote] user after a crash", ["--config", config])
            #expect(afterCrash.status == 78)
            let afterCrashFile = try CorruptRowFile(database)
            #expect(afterCrashFile == crashed, "\(crashed.difference(from: afterCrashFile))")
            try fixture.start()
            #expect(Self.instances(fixture)[crashedID] != nil)
            #expect(fixture.stop() == 0)

            // Tables missing that the recorded migrations made: damage, exit 65, untouched.
            try StateSQL.run(database, "DROP TABLE visibility; PRAGMA wal_checkpoint(TRUNCATE);")
            let dropped = try CorruptRowFile(database)
            let damaged = try Self.failedStart(fixture, "a table missing")
            #expect(damaged.status == 65)
            #expect(damaged.log.contains("its tables are not widgetd's") && damaged.log.contains("no such table: visibility"))
            #expect(damaged.log.contains("widgetd has not modified it"))
            let afterDamaged = try CorruptRowFile(database)
            #expect(afterDamaged == dropped, "\(dropped.difference(from: afterDamaged))")
        }

        /// Each status in docs/running.md's table, staged, and nothing else returned.
        @Test func exitStatusesAreTheDocumentedOnes() throws {
            let documented = try Self.documentedExitStatuses()
            print("corrupt row: documented exit statuses: \(documented.sorted())")
            let fixture = try DaemonFixture()
            defer { fixture.crash() }
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            _ = try fixture.add("test.pushed")
            var seen: [Int32: String] = [:]

            // 1: another widgetd listens on the socket (a restart may well succeed later).
            seen[try Self.failedStart(fixture, "socket taken").status, default: ""] += "socket taken; "
            #expect(fixture.stop() == 0)

            // 64: the command line is wrong.
            seen[try Self.failedStart(fixture, "bad flag", ["--log-level", "loud"]).status, default: ""] += "bad flag; "

            // 65: the database is damaged.
            let notADatabase = fixture.directory + "/damaged"
            try FileManager.default.createDirectory(atPath: notADatabase, withIntermediateDirectories: false)
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: notADatabase + "/state.sqlite"))
            seen[try Self.failedStart(fixture, "not a database", stateDirectory: notADatabase).status, default: ""] += "damaged; "

            // 73: the state directory cannot be made (a file is in its place).
            let file = fixture.directory + "/a-file"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let notADirectory = try Self.failedStart(fixture, "state directory is a file", stateDirectory: file + "/state")
            seen[notADirectory.status, default: ""] += "not writable; "
            #expect(notADirectory.log.contains("ENOTDIR"), "\(notADirectory.log)")

            // 78: settings.
            let config = fixture.directory + "/bad.conf"
            try "[budget]\ndaily-limit = lots\n".write(toFile: config, atomically: true, encoding: .utf8)
            seen[try Self.failedStart(fixture, "bad settings", ["--config", config]).status, default: ""] += "settings; "

            // A quarantined row is not a failed start.
            try StateSQL.run(database(fixture), "UPDATE instance SET configuration = '{x';")
            try fixture.start()
            #expect(fixture.ctl("ping").status == 0)

            print("corrupt row: exit statuses seen: \(seen.sorted { $0.key < $1.key })")
            #expect(Set(seen.keys) == documented, "seen \(seen), documented \(documented.sorted())")
            #expect(seen[1] == "socket taken; ")
            #expect(seen[64] == "bad flag; ")
            #expect(seen[65] == "damaged; ")
            #expect(seen[73] == "not writable; ")
            #expect(seen[78] == "settings; ")
            // The unit does not restart into a fault a restart cannot fix.
            #expect(try StorageFaultUnit.restartPreventExitStatus() == documented.subtracting([1]))
        }

        /// The statuses in the table under "Exit statuses when widgetd cannot start".
        static func documentedExitStatuses() throws -> Set<Int32> {
            let text = try String(contentsOfFile: TestPaths.repository + "/docs/running.md", encoding: .utf8)
            guard let start = text.range(of: "Exit statuses when widgetd cannot start") else {
                throw FixtureError("docs/running.md has no exit status table")
            }
            let lines = text[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
            return Set(lines.compactMap { line in
                Int32(line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "")
            })
        }
    }
}
