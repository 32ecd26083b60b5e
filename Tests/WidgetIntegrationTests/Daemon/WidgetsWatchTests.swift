import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Descriptors are picked up without a SIGHUP. The widgets directories
    /// are watched (files created, rewritten, renamed in and out, deleted; a directory made
    /// later), `widgets reload` reads them on demand, and each read says what changed: in its
    /// answer, a log line and an event.
    @Suite struct WidgetsWatch {
        private static func write(_ json: String, to path: String) throws {
            try json.write(toFile: path, atomically: false, encoding: .utf8)
        }

        private static func descriptor(_ kind: String, name: String? = nil) -> String {
            #"{"kind":"\#(kind)","displayName":"\#(name ?? kind)","supportedFamilies":["systemSmall"]}"#
        }

        private static func displayName(_ fixture: DaemonFixture, _ kind: String) -> String? {
            let widgets = fixture.ctl("--json", "widgets").object["widgets"] as? [[String: Any]] ?? []
            return widgets.first { $0["kind"] as? String == kind }?["displayName"] as? String
        }

        @Test func aDescriptorIsPickedUpChangedAndDroppedWithoutBeingAsked() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            try fixture.start()
            let dir = fixture.widgetsDirectory

            // The refusal says where a descriptor belongs and that it is picked up at once.
            let unknown = fixture.ctl("add", "test.late", "--family", "systemSmall")
            #expect(unknown.status == 1)
            #expect(
                unknown.stderr == "widgetctl: unknown kind 'test.late' (descriptors read from \(dir); add a descriptor there, it is picked up at once)\n")
            #expect(fixture.ctl("--json", "widgets").object["watched"] as? Bool == true)

            let events = fixture.directory + "/events.log"
            let watch = try fixture.launch(TestPaths.widgetctl, ["--json", "watch"], environment: ["WIDGETD_SOCKET": fixture.socketPath], log: events)
            defer { kill(watch.processIdentifier, SIGTERM) }
            try fixture.waitUntil("the event stream to subscribe") {
                fixture.ctl("--json", "status").object["subscribers"] as? Int == 1
            }

            // Written elsewhere and renamed in, as editors and `mv` do.
            let staged = fixture.directory + "/late.json"
            try Self.write(Self.descriptor("test.late"), to: staged)
            #expect(rename(staged, dir + "/late.json") == 0)
            try fixture.waitUntil("test.late to be loaded") { fixture.kinds().contains("test.late") }
            #expect((try? fixture.add("test.late")) != nil)
            try fixture.waitUntil("the log line of the read that added test.late") {
                !fixture.logLines(containing: "descriptors read", "trigger=watch", "added=test.late").isEmpty
            }
            try fixture.waitUntil("the widgets event naming test.late") {
                let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").contains { $0.contains(#""type":"widgets""#) && $0.contains("test.late") }
            }

            // Rewritten in place: read once its writer closes it.
            try Self.write(Self.descriptor("test.late", name: "Late"), to: dir + "/late.json")
            try fixture.waitUntil("test.late's new display name") { Self.displayName(fixture, "test.late") == "Late" }
            #expect(!fixture.logLines(containing: "descriptors read", "trigger=watch", "changed=test.late").isEmpty)

            // A file that does not parse is skipped and reported; the kind it declared goes.
            try Self.write("{ not json", to: dir + "/late.json")
            try fixture.waitUntil("late.json to be reported as skipped") {
                let problems = fixture.ctl("--json", "widgets").object["problems"] as? [[String: Any]] ?? []
                return problems.contains { $0["path"] as? String == dir + "/late.json" }
            }
            #expect(!fixture.kinds().contains("test.late"))

            // Fixed, then moved away, then deleted.
            try Self.write(Self.descriptor("test.late"), to: dir + "/late.json")
            try fixture.waitUntil("test.late to be back") { fixture.kinds().contains("test.late") }
            #expect(rename(dir + "/late.json", fixture.directory + "/moved.json") == 0)
            try fixture.waitUntil("test.late to go when its file is moved away") { !fixture.kinds().contains("test.late") }
            #expect(unlink(fixture.widgetsDirectory + "/test.pushed.json") == 0)
            try fixture.waitUntil("test.pushed to go when its file is deleted") { fixture.kinds().isEmpty }
            #expect(!fixture.logLines(containing: "descriptors read", "trigger=watch", "removed=test.pushed").isEmpty)
            // The instance of a kind that went stays, as after a SIGHUP.
            #expect(fixture.ctl("--json", "list").array.count == 1)
        }

        @Test func aWidgetsDirectoryMadeLaterIsWatchedFromTheStart() throws {
            let fixture = try DaemonFixture()
            let later = fixture.directory + "/later/widgets"
            try fixture.start(arguments: ["--widgets-dir", later])
            let missing = (fixture.ctl("--json", "widgets").object["problems"] as? [[String: Any]] ?? []).first
            #expect(missing?["path"] as? String == later && missing?["reason"] as? String == "no such directory")

            try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
            try Self.write(Self.descriptor("test.later"), to: later + "/later.json")
            try fixture.waitUntil("test.later from the new directory") { fixture.kinds() == ["test.later"] }
            #expect((fixture.ctl("--json", "widgets").object["problems"] as? [Any])?.isEmpty == true)

            // The directory removed, then moved back in whole.
            let aside = fixture.directory + "/aside"
            #expect(rename(later, aside) == 0)
            try fixture.waitUntil("test.later to go with its directory") { fixture.kinds().isEmpty }
            #expect(rename(aside, later) == 0)
            try fixture.waitUntil("test.later to come back with its directory") { fixture.kinds() == ["test.later"] }
        }

        @Test func aBurstOfChangesIsReadOnce() throws {
            let fixture = try DaemonFixture()
            try fixture.start()
            let count = 30
            for index in 0..<count {
                try Self.write(Self.descriptor("test.burst\(index)"), to: fixture.widgetsDirectory + "/burst\(index).json")
            }
            try fixture.waitUntil("all \(count) kinds") { fixture.kinds().count == count }
            let reads = fixture.logLines(containing: "descriptors read", "trigger=watch", "added=test.burst")
            print("widgets watch: \(count) files written in a burst, read \(reads.count) time(s)")
            // One read, unless the machine stalled the writing loop past the gathering delay.
            #expect(reads.count < count / 3, "\(reads)")
        }

        @Test func widgetsReloadAndSighupReportWhatChanged() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.kept", exec: nil)
            try fixture.descriptor("test.gone", exec: nil)
            try fixture.start(arguments: ["--no-widgets-watch"])
            let dir = fixture.widgetsDirectory
            #expect(fixture.ctl("--json", "widgets").object["watched"] as? Bool == false)
            let unknown = fixture.ctl("add", "test.new", "--family", "systemSmall")
            #expect(unknown.stderr.contains("(descriptors read from \(dir); add a descriptor there, then run 'widgetctl widgets reload')"))

            try Self.write(Self.descriptor("test.new"), to: dir + "/new.json")
            try Self.write(Self.descriptor("test.kept", name: "Kept"), to: dir + "/test.kept.json")
            #expect(unlink(dir + "/test.gone.json") == 0)
            try Self.write("[1]", to: dir + "/bad.json")
            // Not watched: nothing is read until asked.
            #expect(fixture.kinds() == ["test.gone", "test.kept"])

            let answer = fixture.ctl("--json", "widgets", "reload")
            #expect(answer.status == 0, "\(answer.stderr)")
            #expect(answer.object["added"] as? [String] == ["test.new"])
            #expect(answer.object["changed"] as? [String] == ["test.kept"])
            #expect(answer.object["removed"] as? [String] == ["test.gone"])
            #expect(answer.object["kinds"] as? Int == 2)
            let problems = answer.object["problems"] as? [[String: Any]] ?? []
            #expect(problems.count == 1 && problems.first?["path"] as? String == dir + "/bad.json")
            #expect(fixture.kinds() == ["test.kept", "test.new"])
            #expect(
                !fixture.logLines(
                    containing: "descriptors read", "trigger=request", "added=test.new", "changed=test.kept", "removed=test.gone",
                    "problems=1"
                ).isEmpty)

            let again = fixture.ctl("widgets", "reload")
            #expect(again.stdout == "skipped  \(dir)/bad.json: $[0]: expected an object\nno kind changed; 2 kinds loaded\n")

            // SIGHUP reads the same way and says so in the same line.
            #expect(unlink(dir + "/bad.json") == 0)
            try fixture.descriptor("test.signal", exec: nil)
            kill(fixture.process!.processIdentifier, SIGHUP)
            #expect(fixture.notify?.wait(for: "READY=1", timeout: 10) != nil)
            #expect(fixture.kinds() == ["test.kept", "test.new", "test.signal"])
            #expect(!fixture.logLines(containing: "descriptors read", "trigger=signal", "added=test.signal", "problems=0").isEmpty)
        }
    }
}
