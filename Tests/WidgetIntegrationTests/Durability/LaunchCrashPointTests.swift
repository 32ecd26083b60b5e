import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// A launch waits for no commit: it starts while its request is being stored, and its
    /// answer is shown before the timeline is. A SIGKILL at either point loses nothing
    /// acknowledged: the request stays stored until the timeline is, so a restart runs the
    /// reload again.
    @Suite struct LaunchCrashPoints {
        /// A daemon on the real clock whose one instance has loaded "run0" and whose `reload`
        /// was answered, with the reload's launch waiting for release1.
        private static func reloading() throws -> (fixture: DaemonFixture, starts: String, release: String, id: String) {
            let fixture = try DaemonFixture()
            let (starts, release) = try fixture.gatedProvider()
            try fixture.descriptor("test.gated", exec: ["./gated"], timeout: 100)
            try fixture.start(clock: nil, arguments: ["--no-budget"])
            let id = try fixture.add("test.gated")
            Self.release(release, 0)
            try Poll.until("the first load") { fixture.shownContent(id) == "run0" }
            #expect(fixture.ctl("reload", "test.gated").status == 0)
            try Poll.until("the reload's launch") { Self.count(starts) == 2 }
            return (fixture, starts, release, id)
        }

        private static func count(_ path: String) -> Int {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
        }

        private static func release(_ base: String, _ n: Int) {
            _ = FileManager.default.createFile(atPath: base + "\(n)", contents: nil)
        }

        private static func killProviders(_ starts: String) {
            let pids = ((try? String(contentsOfFile: starts, encoding: .utf8)) ?? "").split(separator: "\n")
            for pid in pids.compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
        }

        @Test func crashAfterTheRequestIsAnsweredRunsTheReloadAgain() throws {
            let (fixture, starts, release, id) = try Self.reloading()
            defer { Self.killProviders(starts) }
            fixture.crash()
            let database = fixture.stateDirectory + "/state.sqlite"
            #expect(try StateSQL.rows(database, "SELECT count(*) FROM request", readOnly: false) == ["1"])

            Self.release(release, 1)
            Self.release(release, 2)
            try fixture.start(clock: nil, arguments: ["--no-budget"])
            try Poll.until("the reload run again after the restart") { fixture.shownContent(id) == "run2" }
            #expect(Self.count(starts) == 3)
            try Poll.until("the request deleted with the timeline's commit") {
                (try? StateSQL.rows(database, "SELECT count(*) FROM request", readOnly: true)) == ["0"]
            }
        }

        @Test func crashAfterTheAnswerIsShownBeforeItIsStoredRunsTheReloadAgain() throws {
            let (fixture, starts, release, id) = try Self.reloading()
            defer { Self.killProviders(starts) }

            // Another writer holds the database, so the answer's commit waits (up to the store's
            // busy timeout of 5 s) while the answer is already shown.
            let database = fixture.stateDirectory + "/state.sqlite"
            let locked = fixture.directory + "/locked"
            let holder = try fixture.launch(
                "/usr/bin/sqlite3", [database, "BEGIN IMMEDIATE;", ".shell touch '\(locked)'; sleep 30"],
                log: fixture.directory + "/sqlite3.log")
            defer {
                kill(holder.processIdentifier, SIGKILL)
                holder.waitUntilExit()
            }
            try Poll.until("sqlite3 to take the write lock") { FileManager.default.fileExists(atPath: locked) }
            Self.release(release, 1)
            try Poll.until("the answer shown before its commit", within: 4) { fixture.shownContent(id) == "run1" }
            fixture.crash()
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()

            #expect(try StateSQL.rows(database, "SELECT content FROM entry", readOnly: false) == [#""run0""#])
            #expect(try StateSQL.rows(database, "SELECT count(*) FROM request", readOnly: false) == ["1"])
            Self.release(release, 2)
            try fixture.start(clock: nil, arguments: ["--no-budget"])
            try Poll.until("the reload run again after the restart") { fixture.shownContent(id) == "run2" }
            #expect(Self.count(starts) == 3)
        }
    }
}
