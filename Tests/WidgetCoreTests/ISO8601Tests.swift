import Foundation
import Testing
import WidgetCore

/// The one date format on the wire and in stored JSON: what is written must read back as the
/// same text, however many times a value goes round (stack states and donations are stored as
/// JSON, and events re-send dates).
@Suite("ISO 8601 dates")
struct ISO8601Tests {
    @Test(arguments: [
        "2026-01-05T09:00:00Z", "2026-01-05T09:00:00.255Z", "2026-01-05T09:00:00.999Z",
        "2026-01-05T09:00:00.001Z", "9999-12-31T23:59:59.999Z", "1960-06-30T23:59:59.250Z",
        "1969-12-31T23:59:59.999Z",
    ])
    func textSurvivesRoundTrips(text: String) throws {
        var current = text
        for _ in 0..<3 {
            current = ISO8601.string(from: try #require(ISO8601.date(from: current)))
            #expect(current == text)
        }
    }

    @Test func fractionsRoundToTheNearestMillisecond() {
        let date = Date(timeIntervalSince1970: 1_767_603_600.2556)
        #expect(ISO8601.string(from: date) == "2026-01-05T09:00:00.256Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_767_603_600.9996)) == "2026-01-05T09:00:01Z")
    }

    @Test func zonesAreReadAndWrittenAsUTC() throws {
        let date = try #require(ISO8601.date(from: "2026-01-05T18:00:00.500+09:00"))
        #expect(ISO8601.string(from: date) == "2026-01-05T09:00:00.500Z")
    }
}
