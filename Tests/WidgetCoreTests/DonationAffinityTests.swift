import Foundation
import Testing
import WidgetCore

/// Donations (docs/smart-stacks.md): matching by supported combinations, affinity by time of day,
/// day type and age.
@Suite("Donation affinity")
struct DonationAffinityTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// 2026-01-05 is a Monday.
    static let monday = ISO8601.date(from: "2026-01-05T00:00:00Z")!

    static let schema = IntentSchema(
        type: "ShowStock",
        parameters: [
            IntentParameter(name: "symbol", title: "Symbol", type: .string),
            IntentParameter(name: "exchange", title: "Exchange", type: .string),
            IntentParameter(name: "chart", title: "Chart", type: .boolean),
        ],
        supportedCombinations: [["symbol"], ["exchange", "chart"]])

    @Test func matchingNeedsTheIntentTypeAndOneWholeCombination() {
        let configuration: [String: JSONValue] = ["symbol": .string("AAPL"), "exchange": .string("NASDAQ"), "chart": .bool(true)]
        func donation(_ type: String, _ parameters: [String: JSONValue]) -> Donation {
            Donation(intentType: type, parameters: parameters, date: Self.monday)
        }
        #expect(donation("ShowStock", ["symbol": .string("AAPL")]).matches(Self.schema, configuration: configuration))
        #expect(donation("ShowStock", ["exchange": .string("NASDAQ"), "chart": .bool(true)]).matches(Self.schema, configuration: configuration))
        // Half a combination is not enough; another value is not a match; nor another intent.
        #expect(!donation("ShowStock", ["exchange": .string("NASDAQ")]).matches(Self.schema, configuration: configuration))
        #expect(!donation("ShowStock", ["symbol": .string("MSFT")]).matches(Self.schema, configuration: configuration))
        #expect(!donation("OpenStock", ["symbol": .string("AAPL")]).matches(Self.schema, configuration: configuration))
    }

    /// Four weeks of weekday donations around 12:00.
    static func lunchDonations() -> [Donation] {
        (0..<28).compactMap { day -> Donation? in
            let date = monday.addingTimeInterval(Double(day) * 86400 + 12 * 3600 + Double(day % 3) * 600)
            guard !utc.isDateInWeekend(date) else { return nil }
            return Donation(intentType: "ShowStock", parameters: [:], date: date, id: "d\(day)")
        }
    }

    @Test func affinityFollowsTimeOfDayAcrossWeeks() {
        let affinity = DonationAffinity()
        let donations = Self.lunchDonations()
        // Week five, Monday and Saturday.
        let monday = Self.monday.addingTimeInterval(28 * 86400)
        let noon = affinity.affinity(at: monday.addingTimeInterval(12 * 3600), donations: donations, calendar: Self.utc).value
        let evening = affinity.affinity(at: monday.addingTimeInterval(19 * 3600), donations: donations, calendar: Self.utc).value
        let saturdayNoon = affinity.affinity(at: monday.addingTimeInterval(5 * 86400 + 12 * 3600), donations: donations, calendar: Self.utc).value
        #expect(noon > 0.5)
        #expect(evening < 0.05)
        #expect(noon > saturdayNoon && saturdayNoon > evening)
        #expect((0...1).contains(noon))
    }

    @Test func olderDonationsCountLessAndDeletedOnesNotAtAll() {
        let affinity = DonationAffinity()
        let recent = [Donation(intentType: "T", parameters: [:], date: Self.monday.addingTimeInterval(12 * 3600), id: "a")]
        let old = [Donation(intentType: "T", parameters: [:], date: Self.monday.addingTimeInterval(12 * 3600 - 28 * 86400), id: "b")]
        let at = Self.monday.addingTimeInterval(7 * 86400 + 12 * 3600)
        #expect(affinity.affinity(at: at, donations: recent, calendar: Self.utc).value
            > affinity.affinity(at: at, donations: old, calendar: Self.utc).value)
        #expect(affinity.affinity(at: at, donations: [], calendar: Self.utc).value == 0)
        // A donation dated after `now` does not count yet.
        #expect(affinity.affinity(at: Self.monday, donations: recent, calendar: Self.utc).value == 0)
    }

    @Test func affinityIsConstantWithinASlot() {
        let affinity = DonationAffinity()
        let donations = Self.lunchDonations()
        let start = Self.monday.addingTimeInterval(28 * 86400 + 11 * 3600)
        #expect(affinity.affinity(at: start, donations: donations, calendar: Self.utc).value
            == affinity.affinity(at: start + 899, donations: donations, calendar: Self.utc).value)
        #expect(affinity.nextChange(after: start + 10) == start + 900)
    }
}
