import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// Donation affinity with local times read once per donation gives exactly what reading the
/// calendar at every evaluation gave, including across daylight-saving changes.
@Suite("Local time")
struct LocalTimeTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    /// The affinity formula as it read the calendar for every donation at every evaluation.
    static func direct(_ model: DonationAffinity, at now: Date, _ donations: [Donation], _ calendar: Calendar) -> Double {
        let moment = model.slotStart(now)
        let nowSeconds = moment.timeIntervalSince(calendar.startOfDay(for: moment))
        var sum = 0.0
        for donation in donations where donation.date <= moment && moment.timeIntervalSince(donation.date) <= model.horizon {
            var delta = abs(donation.date.timeIntervalSince(calendar.startOfDay(for: donation.date)) - nowSeconds)
            delta = min(delta, 86400 - delta)
            let dayType = calendar.isDateInWeekend(donation.date) == calendar.isDateInWeekend(moment) ? 1 : model.otherDayTypeWeight
            sum += exp(-0.5 * pow(delta / model.spread, 2)) * dayType * pow(0.5, max(0, moment.timeIntervalSince(donation.date)) / model.halfLife)
        }
        return 1 - exp(-sum / model.saturation)
    }

    /// Donations every 5 h 20 min for three weeks around Europe's spring DST change
    /// (2026-03-29), evaluated every 95 minutes, in zones with and without DST.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC"])
    func precomputedLocalTimesGiveTheSameAffinity(zone: String) {
        let calendar = Self.calendar(zone)
        let model = DonationAffinity()
        let start = ISO8601.date(from: "2026-03-15T00:00:00Z")!
        let donations = (0..<95).map { index in
            Donation(intentType: "T", parameters: [:], date: start + Double(index) * 19200, id: "d\(index)")
        }
        let local = donations.map { LocalDonation($0, calendar: calendar) }
        var now = start + 86400
        while now < start + 22 * 86400 {
            let value = model.affinity(atSlot: model.slotTime(now, calendar: calendar), donations: local).value
            #expect(value == Self.direct(model, at: now, donations, calendar), "\(zone) \(ISO8601.string(from: now))")
            now += 95 * 60
        }
    }

    @Test func aDSTDayIsReadAsElapsedTimeSinceMidnight() {
        let berlin = Self.calendar("Europe/Berlin")
        // 12:00 local on the spring-forward day is 11 hours after local midnight.
        let noon = ISO8601.date(from: "2026-03-29T10:00:00Z")!
        #expect(LocalTime(noon, calendar: berlin).secondsOfDay == 11 * 3600)
        #expect(LocalTime(noon, calendar: berlin).weekend)
    }

    @Test func rankingWithoutDonationsHasNoAffinity() {
        let input = RankingInput(instance: "a", history: RelevanceHistory(), matchedDonations: [])
        let ranked = StackRanking.rank(
            [input], at: t0, settings: RotationSettings(), affinity: DonationAffinity(), calendar: Self.calendar("UTC"))
        #expect(ranked.map(\.affinity) == [0])
        #expect(ranked.map(\.donations) == [[]])
    }
}

/// A local day read once gives the same local time as the calendar, across DST changes.
@Suite struct LocalDayTests {
    @Test(arguments: ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"])
    func theDayReadOnceAgreesWithTheCalendar(zone: String) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        var random = SplitMix64(seed: 3)
        for _ in 0..<500 {
            let date = t0.addingTimeInterval(Double(random.next() % (400 * 86400)))
            let day = try #require(LocalDay(date, calendar: calendar))
            #expect(day.contains(date, zone: calendar.timeZone))
            #expect(LocalTime(date, day: day) == LocalTime(date, calendar: calendar))
            // Another instant of the same local day, from the same day.
            let other = day.start.addingTimeInterval(Double(random.next() % UInt64(day.end.timeIntervalSince(day.start))))
            #expect(LocalTime(other, day: day) == LocalTime(other, calendar: calendar))
        }
    }
}
