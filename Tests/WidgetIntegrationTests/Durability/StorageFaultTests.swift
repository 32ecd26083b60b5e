import Foundation
import Testing
@testable import WidgetIntegrationSupport
import WidgetCore
@testable import WidgetTestSupport

extension Integration {
    /// A full disk, a read-only state directory and a damaged database give
    /// a precise message, no crash loop and no silent loss; writes that cannot be made durable
    /// are refused, and the daemon recovers by itself when the fault goes.
    @Suite(.needs(StorageMount.unavailable))
    struct StorageFaults {
        static let pushed = #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"v":"PUSHED"}}],"policy":"never"}"#

        /// Instances as (id, kind), sorted, from `widgetctl --json list`.
        static func instances(_ fixture: DaemonFixture) -> [String] {
            fixture.ctl("--json", "list").array.compactMap { $0["id"] as? String }.sorted()
        }

        static func firstEntryContent(_ fixture: DaemonFixture, _ id: String) -> String {
            let entries = fixture.ctl("--json", "timeline", id).object["entries"] as? [[String: Any]] ?? []
            return entries.first.map { "\($0["content"] ?? "")" } ?? "none"
        }

        static func occurrences(of text: String, in log: String) -> Int {
            log.components(separatedBy: text).count - 1
        }

        /// Starts widgetd on the fixture's paths (with `extra` arguments) and waits for it to
        /// give up: its exit status and what it logged, also printed under `label`.
        static func failedStart(_ fixture: DaemonFixture, _ label: String, _ extra: [String] = []) throws -> (status: Int32, log: String) {
            let logPath = fixture.directory + "/failed-start.log"
            unlink(logPath)
            let process = try fixture.launch(
                TestPaths.widgetd,
                ["--socket", fixture.socketPath, "--state-dir", fixture.stateDirectory, "--widgets-dir", fixture.widgetsDirectory,
                 "--log-target", "stderr"] + extra,
                log: logPath)
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            print("storage faults: \(label): exit \(process.terminationStatus): \(log.trimmingCharacters(in: .whitespacesAndNewlines))")
            return (process.terminationStatus, log)
        }

        @Test func fullDiskRefusesWritesPreciselyKeepsServingAndRecovers() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.descriptor("test.pushed", exec: nil)
            let disk = try StorageMount(tmpfsAt: fixture.stateDirectory, size: "512k")
            defer {
                fixture.crash()
                disk.unmount()
            }
            try fixture.start()
            let counter = try fixture.add("test.counter", "slot=1")
            let pushedID = try fixture.add("test.pushed")
            #expect(fixture.ctl(["push", pushedID, "-"], stdin: Self.pushed).status == 0)
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)  // the counter's first timeline
            let counterBefore = fixture.ctl("--json", "timeline", counter).object
            #expect((counterBefore["entries"] as? [Any])?.count == 3)
            let acknowledged = Self.instances(fixture)

            let filled = disk.fill()
            print("storage faults: filled the 512 KiB tmpfs with \(filled) bytes")
            let start = Date()
            let add = fixture.ctl("add", "test.pushed", "--family", "systemSmall")
            let push = fixture.ctl(["push", pushedID, "-"], stdin: Self.pushed.replacingOccurrences(of: "PUSHED", with: "LOST"))
            let donate = fixture.ctl("donate", "TestConfiguration", "--set", "slot=1")
            for (name, result) in [("add", add), ("push", push), ("donate", donate)] {
                print("storage faults: \(name) on a full disk: status \(result.status): \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
                #expect(result.status == 1, "\(name)")
                #expect(result.stderr.contains("state could not be saved, nothing changed"), "\(name): \(result.stderr)")
                #expect(result.stderr.contains("is full (ENOSPC"), "\(name): \(result.stderr)")
            }
            // The code on the wire: -32005, the one for "state could not be saved: nothing changed".
            let raw = try RawConnection(path: fixture.socketPath)
            let answer = raw.request(#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"kind":"test.pushed","family":"systemSmall"}}"#)
            #expect((answer?["error"] as? [String: Any])?["code"] as? Int == -32005, "\(answer ?? [:])")
            print("storage faults: three refusals in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
            // A reload whose timeline cannot be stored keeps the previous one.
            #expect(fixture.ctl("clock", "advance", "3m").status == 0)
            let counterDuring = fixture.ctl("--json", "timeline", counter).object
            #expect(counterDuring["receivedAt"] as? String == counterBefore["receivedAt"] as? String)
            #expect((counterDuring["lastError"] as? String)?.contains("state not saved") == true)
            // Nothing half-applied in memory; reads still answer.
            #expect(Self.instances(fixture) == acknowledged)
            #expect(Self.firstEntryContent(fixture, pushedID).contains("PUSHED"))
            let status = fixture.ctl("--json", "status")
            #expect(status.status == 0)
            #expect((status.object["storageError"] as? String)?.contains("is full (ENOSPC") == true, "\(status.stdout)")
            #expect(fixture.isRunning)
            // One error line for the whole fault, not one per refused write.
            #expect(Self.occurrences(of: "state not saved; state-changing requests are refused", in: fixture.log()) == 1)

            disk.free()
            let recovered = try fixture.add("test.pushed")
            #expect(fixture.log().contains("state writable again"))
            #expect(fixture.ctl("--json", "status").object["storageError"] == nil)
            #expect(fixture.ctl("clock", "advance", "6m").status == 0)
            #expect(fixture.ctl("--json", "timeline", counter).object["lastError"] as? String == nil)

            // After a restart, exactly what was acknowledged. The WAL has grown back into the
            // room freed above (it grows until a checkpoint, which needs room of its own), so
            // the operator makes more before the restart; a full disk at start-up is below.
            try disk.resize(to: "2m")
            #expect(fixture.stop() == 0)
            try fixture.start()
            #expect(Self.instances(fixture) == (acknowledged + [recovered]).sorted())
            #expect(Self.firstEntryContent(fixture, pushedID).contains("PUSHED"))

            // Full at start-up: exit 73 (not restarted by systemd), saying so.
            #expect(fixture.stop() == 0)
            disk.fill()
            let fullStart = try Self.failedStart(fixture, "start on a full disk")
            #expect(fullStart.status == 73)
            #expect(fullStart.log.contains("is full"))
            disk.free()
            try fixture.start()
            #expect(Self.instances(fixture) == (acknowledged + [recovered]).sorted())
        }

        /// A read-only state directory (root ignores permission bits, so a read-only mount
        /// stands for "not writable") is a fault a restart cannot fix: exit 73, not a loop.
        /// (A file system going read-only under the running daemon cannot be staged here:
        /// remount,ro refuses while the database is open for writing. Its writes fail with
        /// EROFS or EIO and take the same path as ENOSPC above.)
        @Test func readOnlyStateDirectoryAtStartExitsWith73() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            let disk = try StorageMount(tmpfsAt: fixture.stateDirectory, size: "1m")
            defer {
                fixture.crash()
                disk.unmount()
            }
            try fixture.start()
            let kept = try fixture.add("test.pushed")
            #expect(fixture.stop() == 0)

            try disk.remount(readOnly: true)
            let (status, log) = try Self.failedStart(fixture, "start on a read-only state dir")
            #expect(status == 73)
            #expect(log.contains("is not writable (EROFS, Read-only file system)"))
            #expect(try StorageFaultUnit.restartPreventExitStatus().contains(73))

            // Writable again: everything is still there.
            try disk.remount(readOnly: false)
            try fixture.start()
            #expect(Self.instances(fixture) == [kept])
        }

        /// `chmod 0500` on the state directory, with widgetd running as an unprivileged user
        /// (`setpriv`; root would ignore the mode): exit 73 naming EACCES.
        @Test func stateDirectoryWithoutWritePermissionExitsWith73() throws {
            let fixture = try DaemonFixture()
            let locked = fixture.directory + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            chmod(locked, 0o500)
            chmod(fixture.directory, 0o755)  // mkdtemp made it 0700; the user must get through
            let logPath = fixture.directory + "/locked.log"
            let process = try fixture.launch(
                "/usr/bin/setpriv",
                ["--reuid=61917", "--regid=61917", "--clear-groups", TestPaths.widgetd,
                 "--socket", fixture.directory + "/locked.sock", "--state-dir", locked, "--widgets-dir", fixture.widgetsDirectory,
                 "--log-target", "stderr"],
                log: logPath)
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            print("storage faults: start on a 0500 state dir as uid 61917: exit \(process.terminationStatus): \(log.trimmingCharacters(in: .whitespacesAndNewlines))")
            #expect(process.terminationStatus == 73)
            #expect(log.contains("state directory \(locked) is not writable (EACCES, Permission denied)"))
        }

        @Test func damagedDatabaseStopsTheStartWith65AndIsLeftAsItWas() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            for _ in 0..<20 { _ = try fixture.add("test.pushed") }
            #expect(fixture.stop() == 0)
            let database = fixture.stateDirectory + "/state.sqlite"
            // Fold the WAL into the file, so the damage below hits committed state.
            try StateSQL.run(database, "PRAGMA wal_checkpoint(TRUNCATE);")
            let instanceRoot = Int(try StateSQL.run(database, "SELECT rootpage FROM sqlite_master WHERE name = 'instance';")) ?? 0
            let pristine = try Data(contentsOf: URL(fileURLWithPath: database))
            #expect(instanceRoot > 1)

            var garbage = SplitMix64(seed: 6)
            let random = { (count: Int) in Data((0..<count).map { _ in UInt8(truncatingIfNeeded: garbage.next()) }) }
            let damages: [(String, Data)] = [
                ("truncated to half", pristine.prefix(pristine.count / 2)),
                ("random bytes over the header", random(100) + pristine.dropFirst(100)),
                ("the instance table's page overwritten",
                 pristine.prefix((instanceRoot - 1) * 4096) + random(4096) + pristine.dropFirst(instanceRoot * 4096)),
            ]
            for (name, damaged) in damages {
                for suffix in ["-wal", "-shm"] { unlink(database + suffix) }
                try damaged.write(to: URL(fileURLWithPath: database))
                let (status, log) = try Self.failedStart(fixture, name)
                #expect(status == 65, "\(name)")
                #expect(log.contains("is damaged or not a database"), "\(name)")
                #expect(log.contains("widgetd has not modified it"), "\(name)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == damaged, "\(name): the file was changed")
                let wal = (try? Data(contentsOf: URL(fileURLWithPath: database + "-wal"))) ?? Data()
                #expect(wal.isEmpty, "\(name): a -wal of \(wal.count) bytes was left behind")
            }
            #expect(try StorageFaultUnit.restartPreventExitStatus().contains(65))

            // The operator's way out, as the message says: move it aside, start empty.
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
                try FileManager.default.moveItem(atPath: database + suffix, toPath: database + suffix + ".corrupt")
            }
            try fixture.start()
            #expect(Self.instances(fixture).isEmpty)
        }

        @Test func badSettingsExitWith78() throws {
            let fixture = try DaemonFixture()
            let config = fixture.directory + "/widgetd.conf"
            try "[budget]\ndaily-limit = lots\n".write(toFile: config, atomically: true, encoding: .utf8)
            let (status, log) = try Self.failedStart(fixture, "bad settings", ["--config", config])
            #expect(status == 78, "\(log)")
            #expect(try StorageFaultUnit.restartPreventExitStatus().contains(78))
        }
    }
}

/// What the shipped unit says, for the storage-fault tests.
enum StorageFaultUnit {
    /// The exit statuses systemd/widgetd.service tells systemd not to restart on.
    static func restartPreventExitStatus() throws -> Set<Int32> {
        let unit = try String(contentsOfFile: TestPaths.repository + "/systemd/widgetd.service", encoding: .utf8)
        let values = unit.split(separator: "\n").filter { $0.hasPrefix("RestartPreventExitStatus=") }
            .flatMap { $0.dropFirst("RestartPreventExitStatus=".count).split(separator: " ") }
        return Set(values.compactMap { Int32($0) })
    }
}
