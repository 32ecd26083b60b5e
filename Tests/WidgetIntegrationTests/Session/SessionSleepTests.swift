import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// logind's sleep, mocked by python3-dbusmock: widgetd holds a delay inhibitor while it runs,
    /// lets it go once its commits are synced when `PrepareForSleep(true)` comes, and at
    /// `PrepareForSleep(false)` runs what came due and takes it again. (What comes due while
    /// asleep runs in one step: `SuspendTests`, on injected clocks.)
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

        static func inhibitors(_ logind: SessionMock) -> String {
            (try? logind.call("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListInhibitors")) ?? ""
        }

        static func holdsInhibitor(_ logind: SessionMock) -> Bool {
            inhibitors(logind).contains(#""widgetd""#)
        }
    }
}
