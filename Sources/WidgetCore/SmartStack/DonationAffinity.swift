import Foundation

/// How much the user's donation history says about an instance at a moment, in [0, 1]
/// (docs/smart-stacks.md). Each matching donation contributes
/// `timeOfDay × dayType × recency`:
/// - time of day: a Gaussian on the circular 24-hour axis (σ = `spread`), so donations near
///   12:00 count at 12:00 and hardly at 19:00;
/// - day type: 1 on the same kind of day (weekday/weekend), `otherDayTypeWeight` otherwise;
/// - recency: halves every `halfLife`.
/// The sum is squashed to [0, 1) by `1 - exp(-sum / saturation)`.
///
/// The time of day is taken at the start of its `slot` (15 minutes by default), so affinity
/// changes only at slot boundaries: the daemon re-evaluates stacks then, not continuously.
public struct DonationAffinity: Sendable, Hashable, Codable {
    public var spread: TimeInterval = 5400
    public var otherDayTypeWeight: Double = 0.25
    public var halfLife: TimeInterval = 14 * 86400
    public var saturation: Double = 3
    public var slot: TimeInterval = 900
    /// Donations older than this are ignored (and can be deleted).
    public var horizon: TimeInterval = 90 * 86400

    public init() {}

    /// The affinity at `now` from `donations` (already matched to the instance), read in
    /// `calendar`'s time zone, with the donations that contributed, strongest first.
    public func affinity(
        at now: Date, donations: [Donation], calendar: Calendar
    ) -> (value: Double, contributions: [(donation: Donation, weight: Double)]) {
        // No donation, no affinity: 1 - exp(0) is 0, and the calendar need not be read.
        guard !donations.isEmpty else { return (0, []) }
        return affinity(atSlot: slotTime(now, calendar: calendar), donations: donations.map { LocalDonation($0, calendar: calendar) })
    }

    /// The local time of the slot containing `now`: what `affinity(atSlot:donations:)` takes,
    /// read once for every instance of a stack.
    public func slotTime(_ now: Date, calendar: Calendar) -> LocalTime {
        LocalTime(slotStart(now), calendar: calendar)
    }

    /// The affinity in the slot that starts at `moment.date`, from donations whose local time
    /// was read once (see `LocalTime`).
    public func affinity(
        atSlot moment: LocalTime, donations: [LocalDonation]
    ) -> (value: Double, contributions: [(donation: Donation, weight: Double)]) {
        var sum = 0.0
        var contributions: [(Donation, Double)] = []
        // Donations count from the slot after their date, like every other change of affinity,
        // so the daemon's slot recheck sees them exactly when they start to count.
        for local in donations where local.time.date <= moment.date && moment.date.timeIntervalSince(local.time.date) <= horizon {
            var delta = abs(local.time.secondsOfDay - moment.secondsOfDay)
            delta = min(delta, 86400 - delta)
            let timeOfDay = exp(-0.5 * pow(delta / spread, 2))
            let dayType = local.time.weekend == moment.weekend ? 1 : otherDayTypeWeight
            // Age is read at the slot start too, so the value holds for the whole slot.
            let recency = pow(0.5, max(0, moment.date.timeIntervalSince(local.time.date)) / halfLife)
            let weight = timeOfDay * dayType * recency
            if weight > 1e-4 { contributions.append((local.donation, weight)) }
            sum += weight
        }
        contributions.sort { $0.1 > $1.1 }
        return (1 - exp(-sum / saturation), contributions)
    }

    /// The start of the slot containing `date`.
    public func slotStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / slot).rounded(.down) * slot)
    }

    /// When the affinity may next change: the next slot boundary.
    public func nextChange(after now: Date) -> Date {
        slotStart(now).addingTimeInterval(slot)
    }
}
