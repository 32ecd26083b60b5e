import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// GeoClue2 (a mock of the test's own on python3-dbusmock) is followed as it comes and goes,
    /// and never asked for the location while no location clue is in use.
    @Suite struct GeoClueFollowing {
        @Test func geoClueAbsentThenAppearingThenRestarting() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            try session.startWidgetd()
            try session.waitForSource("geoclue", "missing")

            let geoclue = try session.geoclue()
            try session.waitForSource("geoclue", "available")
            try geoclue.stop()
            try session.waitForSource("geoclue", "missing")
            try geoclue.start()
            try session.waitForSource("geoclue", "available")
            #expect(fixture.ctl("status").status == 0)
            // No clue uses the location: GeoClue was never asked for a client.
            #expect(!geoclue.calls().contains("GetClient"), "calls: \(geoclue.calls())")
            #expect(session.value("location") == "unknown")
        }
    }
}
