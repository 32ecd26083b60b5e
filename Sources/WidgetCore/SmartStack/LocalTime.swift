import Foundation

/// An instant as donation affinity reads it in a time zone: seconds since the start of its
/// local day, and whether that day is a weekend. Reading these through `Calendar` is slow
/// (it dominated re-evaluating a stack), so a donation's is read once, when it is made or
/// loaded, and an evaluation's once for all the stacks it ranks.
public struct LocalTime: Sendable, Hashable {
    public var date: Date
    /// Seconds since the local start of day (elapsed time, so a day with a DST change is
    /// 23 or 25 hours long, as `Calendar.startOfDay` makes it).
    public var secondsOfDay: Double
    public var weekend: Bool

    public init(_ date: Date, calendar: Calendar) {
        self.date = date
        secondsOfDay = date.timeIntervalSince(calendar.startOfDay(for: date))
        weekend = calendar.isDateInWeekend(date)
    }

    /// The same, from the local day that holds `date`, read already.
    public init(_ date: Date, day: LocalDay) {
        self.date = date
        secondsOfDay = date.timeIntervalSince(day.start)
        weekend = day.weekend
    }
}

/// One local day as a calendar reads it: when it starts and ends (23 or 25 hours apart on a
/// daylight-saving change), and whether it is a weekend. Donations come in dated today, so
/// the day read for the last one serves the next, without asking the calendar again.
public struct LocalDay: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var weekend: Bool
    public var zone: TimeZone

    public init?(_ date: Date, calendar: Calendar) {
        guard let interval = calendar.dateInterval(of: .day, for: date) else { return nil }
        start = interval.start
        end = interval.end
        weekend = calendar.isDateInWeekend(date)
        zone = calendar.timeZone
    }

    public func contains(_ date: Date, zone: TimeZone) -> Bool {
        self.zone == zone && start <= date && date < end
    }
}

/// A donation with its local time read once in the daemon's time zone.
public struct LocalDonation: Sendable, Hashable {
    public var donation: Donation
    public var time: LocalTime
    /// When it was recorded relative to the other donations retained (see `DonationLog`): of
    /// equal dates, the later is newer. Also tells two equal donations apart.
    public var order: UInt64

    public init(_ donation: Donation, calendar: Calendar, order: UInt64 = 0) {
        self.donation = donation
        time = LocalTime(donation.date, calendar: calendar)
        self.order = order
    }

    public init(_ donation: Donation, time: LocalTime, order: UInt64 = 0) {
        self.donation = donation
        self.time = time
        self.order = order
    }
}
