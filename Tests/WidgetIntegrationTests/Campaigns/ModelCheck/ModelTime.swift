/// Whole seconds since 1970. Every date the model check makes is whole (the clock moves by
/// whole seconds and the providers answer whole dates), so the model needs no fractions and
/// its dates print exactly as the daemon prints them.
typealias Seconds = Int

/// Calendar arithmetic for the model, in UTC (the daemon under test runs with `TZ=UTC`), kept
/// apart from Foundation so the model reads as the rules say: time of day, weekday, 15-minute slot.
enum ModelTime {
    static let day: Seconds = 86_400

    /// `2026-01-05T08:00:00Z`, as the daemon writes whole-second dates.
    static func iso(_ seconds: Seconds) -> String {
        let (y, m, d) = civil(fromDays: floorDiv(seconds, day))
        let s = seconds - floorDiv(seconds, day) * day
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(s / 3600, 2)):\(pad(s % 3600 / 60, 2)):\(pad(s % 60, 2))Z"
    }

    /// The inverse of `iso`, for the virtual start; nil for anything else.
    static func seconds(_ text: String) -> Seconds? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6, text.hasSuffix("Z") else { return nil }
        return days(fromCivil: parts[0], parts[1], parts[2]) * day + parts[3] * 3600 + parts[4] * 60 + parts[5]
    }

    /// Seconds since the start of the (UTC) day.
    static func secondsOfDay(_ seconds: Seconds) -> Seconds { seconds - floorDiv(seconds, day) * day }

    /// Saturday or Sunday (1970-01-01 was a Thursday).
    static func isWeekend(_ seconds: Seconds) -> Bool {
        let weekday = (floorDiv(seconds, day) + 4) % 7  // 0 = Sunday
        return weekday == 0 || weekday == 6
    }

    /// The start of the 15-minute slot holding `seconds`.
    static func slotStart(_ seconds: Seconds) -> Seconds { floorDiv(seconds, 900) * 900 }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    // Howard Hinnant's days-from-civil and its inverse.
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
