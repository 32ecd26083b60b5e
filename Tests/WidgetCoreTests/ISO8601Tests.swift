import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

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

    /// Years widgetd cannot write in four digits, or whose arithmetic is lossy, are no dates.
    @Test(arguments: ["0000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", "-0001-01-01T00:00:00Z", "10000-01-01T00:00:00Z"])
    func datesOutsideYearsOneToNineThousandAreRefused(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }

    @Test func theFirstAndLastSupportedDatesAreRead() {
        #expect(ISO8601.date(from: "0001-01-01T00:00:00Z") == SupportedDates.earliest)
        #expect(ISO8601.date(from: "9999-12-31T23:59:59Z") == SupportedDates.latest)
    }

    /// A date computed past the range (a hold an hour after a virtual clock at the end of
    /// 9999) is written as the range's edge, which reads back.
    @Test func datesPastTheRangeAreWrittenAsItsEdges() throws {
        let late = ISO8601.string(from: SupportedDates.end.addingTimeInterval(3600))
        #expect(late == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601.date(from: late) != nil)
        let early = ISO8601.string(from: SupportedDates.earliest.addingTimeInterval(-86400))
        #expect(ISO8601.date(from: early) == SupportedDates.earliest)
    }

    @Test func zonesAreReadAndWrittenAsUTC() throws {
        let date = try #require(ISO8601.date(from: "2026-01-05T18:00:00.500+09:00"))
        #expect(ISO8601.string(from: date) == "2026-01-05T09:00:00.500Z")
    }
}

/// Dates written with integers match Foundation's ISO 8601 style, fractions and all.
@Suite struct ISO8601CivilTests {
    @Test func integerDatesMatchFoundation() {
        var random = SplitMix64(seed: 99)
        let whole = Date.ISO8601FormatStyle()
        var dates: [Double] = [0, -1, -0.001, 86399.999, 951_782_400, 4_102_444_800, -62_135_596_800, 253_402_300_799.999]
        // Within the years widgetd writes as they are (past them it writes the edges).
        let first = Int64(SupportedDates.earliest.timeIntervalSince1970 * 1000)
        let span = UInt64(Int64((SupportedDates.lastWritten.timeIntervalSince1970 * 1000).rounded()) - first + 1)
        for _ in 0..<20_000 { dates.append(Double(first + Int64(random.next() % span)) / 1000) }
        for seconds in dates {
            let date = Date(timeIntervalSince1970: seconds)
            let milliseconds = Int64((seconds * 1000).rounded())
            var (whole64, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            if fraction < 0 {
                whole64 -= 1
                fraction += 1000
            }
            var expected = Date(timeIntervalSince1970: TimeInterval(whole64)).formatted(whole)
            if fraction != 0 {
                let digits = String(fraction)
                expected = expected.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
            }
            #expect(ISO8601.string(from: date) == expected, "\(seconds)")
        }
    }
}
