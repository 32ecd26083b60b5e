import Foundation
import Testing
@testable import WidgetIntegrationSupport

extension Integration {
    /// Clues fed by the session's sources (python3-dbusmock on a private system bus): a
    /// podcast-like widget rises when headphones connect, and a transit widget when GeoClue puts
    /// the machine inside its region.
    @Suite struct SessionClues {
        /// Push-only kinds: `test.plain` declares no clues, `test.podcast` headphones,
        /// `test.transit` the location. A stack `home` holds `plain` first, then `other`.
        static func stack(
            _ session: SessionBus, other kind: String, clues: [String], settings: String = ""
        ) throws -> (plain: String, other: String) {
            let fixture = session.fixture
            for (name, declared) in [("test.plain", [String]()), (kind, clues)] {
                let object: [String: Any] = ["kind": name, "supportedFamilies": ["systemSmall"], "clues": declared]
                try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: fixture.widgetsDirectory + "/\(name).json"))
            }
            let config = fixture.directory + "/widgetd.conf"
            try ("[rotation]\nmin-dwell = 0\n" + settings).write(toFile: config, atomically: true, encoding: .utf8)
            try session.startWidgetd(clock: DaemonFixture.virtualStart, arguments: ["--config", config])
            let plain = try fixture.add("test.plain")
            let other = try fixture.add(kind)
            #expect(fixture.ctl("stack", "create", "home").status == 0)
            #expect(fixture.ctl("stack", "add", "home", plain, other).status == 0)
            return (plain, other)
        }

        static func timeline(_ relevance: String) -> String {
            #"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"n":1},"relevance":\#(relevance)}],"policy":"never"}"#
        }

        static func top(_ fixture: DaemonFixture) -> String? {
            fixture.ctl("--json", "stack", "show", "home").object["top"] as? String
        }

        static func clue(_ fixture: DaemonFixture, _ id: String) -> Any? {
            let candidates = fixture.ctl("--json", "explain", "home").object["candidates"] as? [[String: Any]] ?? []
            return candidates.first { $0["instance"] as? String == id }?["clue"]
        }

        @Test func headphonesConnectAndAPodcastWidgetRises() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let bluez = try session.bluez()
            try bluez.helper("AddAdapter", "ss", ["hci0", "laptop"])
            let buds = try SessionSources.path(bluez.helper("AddDevice", "sss", ["hci0", "11:22:33:44:55:66", "Buds"]))
            try bluez.update(buds, "org.bluez.Device1", ["1", "Icon", "s", "audio-headphones"])
            let (plain, podcast) = try Self.stack(session, other: "test.podcast", clues: ["headphones"])
            let pushed = fixture.ctl("push", podcast, "-", stdin: Self.timeline(#"{"score":5,"when":[{"headphones":true}]}"#))
            #expect(pushed.status == 0, "\(pushed.stderr)")
            try session.waitFor("headphones", "false")
            #expect(Self.top(fixture) == plain)

            try bluez.helper("ConnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try fixture.waitUntil("the podcast widget on top once headphones connect; explain: \(fixture.ctl("explain", "home").stdout)") {
                Self.top(fixture) == podcast
            }
            #expect((Self.clue(fixture, podcast) as? [String: Any])?["headphones"] as? Bool == true)
            try bluez.helper("DisconnectDevice", "ss", ["hci0", "11:22:33:44:55:66"])
            try fixture.waitUntil("the plain widget back on top once headphones disconnect") { Self.top(fixture) == plain }
        }

        @Test func geoClueStartsOnlyForALocationClueAndATransitWidgetRisesInItsRegion() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let geoclue = try session.geoclue()
            let (plain, transit) = try Self.stack(session, other: "test.transit", clues: ["location"])
            try session.waitForSource("geoclue", "available")
            #expect(!geoclue.calls().contains("GetClient"), "asked before any location clue: \(geoclue.calls())")

            // The station is 2 km away from where the mock starts (52.52, 13.405).
            let station = #"{"score":5,"when":[{"location":{"latitude":52.5251,"longitude":13.3694,"radius":300}}]}"#
            #expect(fixture.ctl("push", transit, "-", stdin: Self.timeline(station)).status == 0)
            try session.waitFor("location", "known")
            #expect(try geoclue.call(GeoClueMock.client, "org.freedesktop.DBus.Properties", "Get", "ss", [GeoClueMock.clientInterface, "DesktopId"])
                .contains(#""widgetd""#))
            #expect(try geoclue.call(GeoClueMock.client, "org.freedesktop.DBus.Properties", "Get", "ss", [GeoClueMock.clientInterface, "DistanceThreshold"])
                .contains("100"))
            #expect(Self.top(fixture) == plain)

            try geoclue.mock("SetPosition", "dd", ["52.5252", "13.3695"])
            try fixture.waitUntil("the transit widget on top at the station; explain: \(fixture.ctl("explain", "home").stdout)") {
                Self.top(fixture) == transit
            }
            // explain names the clue by the entry's region, never by where the machine is.
            let region = "inside the region of the entry of 2026-01-05T08:00:00Z"
            #expect((Self.clue(fixture, transit) as? [String: Any])?["location"] as? String == region)
            let why = fixture.ctl("--json", "explain", "home").object["why"] as? String ?? ""
            #expect(why.contains("clue holds: location \(region)"), "\(why)")
            let text = fixture.ctl("explain", "home").stdout
            #expect(text.contains(region) && !text.contains("52.52"), "\(text)")
            // Where the machine is never reaches the log or an answer.
            #expect(!fixture.log().contains("52.5252") && !fixture.log().contains("13.3695"))
            #expect(!fixture.ctl("--json", "context").stdout.contains("52.52"))

            // GeoClue restarts: widgetd's client is made again.
            try geoclue.stop()
            try session.waitForSource("geoclue", "missing")
            try geoclue.start()
            try session.waitForSource("geoclue", "available")
            try session.waitFor("location", "known")
            #expect(geoclue.calls().components(separatedBy: "GetClient").count - 1 == 1, "the restarted mock's log: \(geoclue.calls())")

            // No clue uses the location any more: the client is stopped and the location forgotten.
            #expect(fixture.ctl("push", transit, "-", stdin: Self.timeline(#"{"score":1}"#)).status == 0)
            try session.waitFor("location", "unknown")
            try fixture.waitUntil("widgetd's GeoClue client stopped; calls: \(geoclue.calls())") { geoclue.calls().contains("Stop") }

            // Nor the disk: no file of the state holds either position GeoClue reported.
            #expect(fixture.stop() == 0)
            let found = Self.stateFiles(fixture, holding: [52.52, 13.405, 52.5252, 13.3695], text: ["13.405", "52.5252", "13.3695"])
            #expect(found.isEmpty, "the machine's coordinates are in the state: \(found)")
        }

        /// The files under the state directory holding one of `values` as SQLite stores a REAL
        /// (8 bytes, big-endian; little-endian too) or one of `text`.
        static func stateFiles(_ fixture: DaemonFixture, holding values: [Double], text: [String]) -> [String] {
            let patterns = values.flatMap { value in
                [withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }, withUnsafeBytes(of: value.bitPattern.littleEndian) { Data($0) }]
            } + text.map { Data($0.utf8) }
            let root = fixture.stateDirectory
            let files = FileManager.default.subpaths(atPath: root) ?? []
            return files.filter { name in
                guard let data = FileManager.default.contents(atPath: root + "/" + name) else { return false }
                return patterns.contains { data.range(of: $0) != nil }
            }
        }

        @Test func withTheLocationSourceOffGeoClueIsNeverAsked() throws {
            let fixture = try DaemonFixture()
            let session = try SessionBus(fixture)
            let geoclue = try session.geoclue()
            let (_, transit) = try Self.stack(session, other: "test.transit", clues: ["location"], settings: "[context]\nlocation = off\n")
            let station = #"{"score":5,"when":[{"location":{"latitude":52.52,"longitude":13.405,"radius":300}}]}"#
            #expect(fixture.ctl("push", transit, "-", stdin: Self.timeline(station)).status == 0)
            try session.waitForSource("geoclue", "off")
            // A restart of GeoClue is seen, and still nothing is asked of it.
            try geoclue.stop()
            try geoclue.start()
            try fixture.waitUntil("widgetd to see GeoClue come back") {
                fixture.logLines(containing: "session source present", "source=geoclue").count == 2
            }
            #expect(session.value("location") == "unknown")
            #expect(!geoclue.calls().contains("GetClient"), "calls: \(geoclue.calls())")
        }
    }
}
