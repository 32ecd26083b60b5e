import Foundation

/// The hours along the picture's time axis, in UTC, labelled by arithmetic on seconds since
/// 1970 (no calendar or formatter): `HH:MM`, and `YYYY-MM-DD` for the day.
struct TimeAxis {
    let start: Double
    let end: Double
    /// Seconds between two labelled ticks: 1, 2, 3, 6, 12 or 24 hours, the smallest that
    /// keeps the labels readable.
    let step: Double

    init(start: Date, end: Date, maxLabels: Int = 24) {
        self.start = start.timeIntervalSince1970
        self.end = max(end.timeIntervalSince1970, self.start + 1)
        let span = self.end - self.start
        step = [1.0, 2, 3, 6, 12, 24, 48, 168].map { $0 * 3600 }.first { span / $0 <= Double(maxLabels) } ?? 168 * 3600
    }

    /// The labelled instants from the first whole step at or after the start.
    var ticks: [Double] {
        var result: [Double] = []
        var tick = (start / step).rounded(.up) * step
        while tick <= end {
            result.append(tick)
            tick += step
        }
        return result
    }

    /// `HH:MM` of an instant.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let secondOfDay = ((whole % 86400) + 86400) % 86400
        return two(secondOfDay / 3600) + ":" + two((secondOfDay % 3600) / 60)
    }

    /// `YYYY-MM-DD` of an instant.
    static func date(_ seconds: Double) -> String {
        civilDate(Int((seconds / 86400).rounded(.down)))
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civilDate(_ days: Int) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(year) + "-" + two(month) + "-" + two(day)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
