import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// logind's sleep, mocked by python3-dbusmock: widgetd holds a delay inhibitor while it runs,
    /// lets it go once its commits are synced when `PrepareForSleep(true)` comes, and at
    /// `PrepareForSleep(false)` runs what came due and takes it again. The machine's sleep is
    /// `clock advance --asleep` on the virtual clock: the time passes and nothing due runs until
    /// the resume. (The timer on the real clock's path: `SuspendTests`, on injected clocks.)
    @Suite struct SessionSleep {
        @Test func theDelayInhibitorIsReleasedBeforeSleepAndTakenAgainAtResume() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            try session.startWidgetd()
            try session.waitForSource("logind", "available")
            try fixture.waitUntil("widgetd's delay inhibitor; logind holds: \(Self.inhibitors(logind))") {
                Self.holdsInhibitor(logind)
            }
            let inhibitor = Self.inhibitors(logind)
            #expect(inhibitor.contains(#""sleep" "widgetd""#) && inhibitor.contains(#""delay""#), "\(inhibitor)")

            // Something to commit as the machine goes to sleep.
            try fixture.descriptor("test.pushed", exec: nil)
            #expect(fixture.ctl("widgets", "reload").status == 0)
            let id = try fixture.add("test.pushed")
            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", ["1", "b", "true"])
            try fixture.waitUntil("widgetd to release its inhibitor before sleep; logind holds: \(Self.inhibitors(logind))") {
                !Self.holdsInhibitor(logind)
            }
            #expect(!fixture.logLines(containing: "commits synced: sleep may go on").isEmpty)
            #expect(fixture.ctl("list").stdout.contains(id))

            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", ["1", "b", "false"])
            try fixture.waitUntil("widgetd to take its inhibitor again after resume; logind holds: \(Self.inhibitors(logind))") {
                Self.holdsInhibitor(logind)
            }
            #expect(!fixture.logLines(containing: "the system resumed from sleep").isEmpty)
            #expect(fixture.ctl("status").status == 0)

            // logind restarts: its inhibitors are gone with it, and widgetd takes a new one.
            try logind.stop()
            try session.waitForSource("logind", "missing")
            try logind.start()
            try fixture.waitUntil("widgetd's inhibitor from the restarted logind; it holds: \(Self.inhibitors(logind))") {
                Self.holdsInhibitor(logind)
            }
        }

        /// Entries every ten minutes and a reload at their end, 09:00; the machine sleeps from
        /// 08:00 to 10:00. Nothing runs while it sleeps; `PrepareForSleep(false)` carries out the
        /// six entry changes, in date order, then the reload once (launched at 10:00), in one
        /// step; and the next deadline, 11:00, runs once.
        @Test func whatCameDueWhileAsleepRunsAtOnceAtResumeInOneStepInOrder() throws {
            let fixture = try DaemonFixture()
            try ClockSteps.hourlyWidget(fixture)
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            try session.startWidgetd(clock: DaemonFixture.virtualStart)
            try session.waitForSource("logind", "available")
            try fixture.waitUntil("widgetd's delay inhibitor; logind holds: \(Self.inhibitors(logind))") { Self.holdsInhibitor(logind) }
            let watch = try ClockStepWatch(fixture)
            let id = try fixture.add("test.hourly")
            #expect(fixture.ctl("clock", "advance", "0s").status == 0)
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z"])
            #expect(Self.due(fixture, id) == "2026-01-05T09:00:00Z")

            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", ["1", "b", "true"])
            try fixture.waitUntil("widgetd to release its inhibitor before sleep; logind holds: \(Self.inhibitors(logind))") {
                !Self.holdsInhibitor(logind)
            }
            let asleep = fixture.ctl("--json", "clock", "advance", "2h", "--asleep")
            #expect(asleep.status == 0, "\(asleep.stderr)")
            #expect(asleep.object["now"] as? String == "2026-01-05T10:00:00Z" && asleep.object["processed"] as? Int == 0, "\(asleep.stdout)")
            // Asleep: nothing ran, the reload still waits for 09:00.
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z"])
            #expect(watch.events("entryChange", instance: id).isEmpty)
            #expect(Self.due(fixture, id) == "2026-01-05T09:00:00Z")

            try logind.emit("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", ["1", "b", "false"])
            try fixture.waitUntil("the resume's step in the log") {
                !fixture.logLines(containing: "resumed from sleep: what came due carried out").isEmpty
            }
            let step = fixture.logLines(containing: "resumed from sleep: what came due carried out")
            print("sleep on the virtual clock: \(step.joined(separator: " / "))")
            #expect(step.count == 1 && step[0].contains("passes=1") && step[0].contains("due=7"), "\(step)")
            let hour = ["08:10", "08:20", "08:30", "08:40", "08:50", "09:00"].map { "2026-01-05T" + $0 + ":00Z" }
            let seen = watch.wait { events in
                events.filter { $0["type"] as? String == "entryChange" }.count >= hour.count
                    && events.filter { $0["type"] as? String == "reload" }.count >= 2
            }
            let changes = seen.filter { $0["type"] as? String == "entryChange" && $0["instance"] as? String == id }
            #expect(changes.prefix(hour.count).compactMap { $0["date"] as? String } == hour)
            let lastChange = seen.lastIndex { $0["type"] as? String == "entryChange" && $0["date"] as? String == hour.last }
            let resumeReload = seen.lastIndex { $0["type"] as? String == "reload" }
            #expect(lastChange != nil && resumeReload != nil && lastChange! < resumeReload!, "entry changes before the reload")
            try fixture.waitUntil("the reload at resume; launches: \(fixture.launches().map(\.now))") { fixture.launches().count >= 2 }
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T10:00:00Z"])
            try fixture.waitUntil("widgetd to take its inhibitor again after resume; logind holds: \(Self.inhibitors(logind))") {
                Self.holdsInhibitor(logind)
            }

            // Nothing left behind: the next hour's reload, at 11:00, runs once.
            #expect(fixture.ctl("clock", "advance", "1h").status == 0)
            #expect(fixture.launches().map(\.now) == ["2026-01-05T08:00:00Z", "2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z"])
            #expect(Self.due(fixture, id) == "2026-01-05T12:00:00Z")
        }

        /// When `schedule` says the instance's reload is due.
        static func due(_ fixture: DaemonFixture, _ id: String) -> String? {
            fixture.ctl("--json", "schedule").array.first { $0["instance"] as? String == id }?["due"] as? String
        }

        static func inhibitors(_ logind: SessionMock) -> String {
            (try? logind.call("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListInhibitors")) ?? ""
        }

        static func holdsInhibitor(_ logind: SessionMock) -> Bool {
            inhibitors(logind).contains(#""widgetd""#)
        }
    }
}
