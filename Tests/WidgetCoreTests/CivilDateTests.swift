import Foundation
import Testing
@testable import WidgetTestSupport
import WidgetCore

/// The one calendar arithmetic: days and civil dates convert both ways, as Foundation's
/// Gregorian calendar counts them.
@Suite struct CivilDateTests {
    @Test func knownDays() {
        #expect(CivilDate(daysSinceEpoch: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(daysSinceEpoch: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 2000, month: 2, day: 29).daysSinceEpoch == 11_016)
        #expect(CivilDate(year: 9999, month: 12, day: 31).daysSinceEpoch == 2_932_896)
        #expect(CivilDate(year: 1583, month: 1, day: 1).daysSinceEpoch == -141_349)
    }

    /// Every day from 1583 (where Foundation's calendar turns Gregorian) to 9999 converts both
    /// ways; a sample is checked against Foundation's own calendar.
    @Test func everyDayRoundTripsAndMatchesFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var previous: CivilDate?
        for days in -141_349...2_932_896 {
            let civil = CivilDate(daysSinceEpoch: days)
            guard civil.daysSinceEpoch == days else {
                Issue.record("day \(days) gives \(civil), which gives \(civil.daysSinceEpoch)")
                return
            }
            if let previous {
                let next = previous.day < CivilDate.days(inMonth: previous.month, of: previous.year)
                    ? CivilDate(year: previous.year, month: previous.month, day: previous.day + 1)
                    : previous.month < 12
                        ? CivilDate(year: previous.year, month: previous.month + 1, day: 1)
                        : CivilDate(year: previous.year + 1, month: 1, day: 1)
                guard civil == next else {
                    Issue.record("day \(days) is \(civil), not the day after \(previous)")
                    return
                }
            }
            previous = civil
            if days % 9973 == 0 {
                let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86400))
                #expect(CivilDate(year: parts.year!, month: parts.month!, day: parts.day!) == civil)
            }
        }
    }

    /// The web host's and the log's dates: Foundation's `.iso8601` text, fraction dropped.
    @Test func wholeSecondTextIsFoundationsDefault() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double(random.next() % 7_000_000_000_000) / 1000 - 2_000_000_000)
            #expect(ISO8601.wholeSecondString(from: date) == date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }
}
