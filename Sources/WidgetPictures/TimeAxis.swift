import Foundation
import WidgetCore

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

    /// The date of a day number since 1970-01-01.
    static func civilDate(_ days: Int) -> String {
        let civil = CivilDate(daysSinceEpoch: days)
        return String(civil.year) + "-" + two(civil.month) + "-" + two(civil.day)
    }

    private static func two(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
