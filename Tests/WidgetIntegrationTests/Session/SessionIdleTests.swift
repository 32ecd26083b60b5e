import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// As `IdleWakeUps`, with every session service present on the bus widgetd reads: signals
    /// only, nothing polled, so with nothing changing and no clue in use no thread wakes.
    @Suite struct SessionIdle {
        @Test func everySourcePresentWakesNoThread() throws {
            let fixture = try DaemonFixture()
            try fixture.descriptor("test.pushed", exec: nil)
            let session = try SessionBus(fixture)
            let logind = try session.logind()
            _ = try SessionSources.addSession(logind, "c1", uid: 1000)
            let upower = try session.upower()
            let profiles = try session.powerProfiles()
            let bluez = try session.bluez()
            try bluez.helper("AddAdapter", "ss", ["hci0", "laptop"])
            let geoclue = try session.geoclue()
            try session.startWidgetd()
            for source in ["logind", "upower", "power-profiles", "bluez", "geoclue"] {
                try session.waitForSource(source, "available")
            }
            try fixture.waitUntil("widgetd's delay inhibitor") { SessionSleep.holdsInhibitor(logind) }
            let id = try fixture.add("test.pushed")
            #expect(fixture.ctl(["push", id, "-"], stdin: IdleWakeUps.timeline).status == 0)

            let woken = try IdleWakeUps.wakeUps(of: fixture)
            #expect(woken.isEmpty, "threads woke with every session source present and nothing due: \(woken)")
            withExtendedLifetime([upower, profiles, geoclue]) {}
        }
    }
}
