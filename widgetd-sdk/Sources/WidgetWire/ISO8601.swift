import Foundation

/// ISO 8601 with a zone (`Z` or `+09:00`), fractional seconds optional.
public enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// nil for a date outside `SupportedDates`, such as year 0000.
    public static func date(from text: String) -> Date? {
        guard let date = (try? fractional.parse(text)) ?? (try? whole.parse(text)) else { return nil }
        return SupportedDates.contains(date) ? date : nil
    }

    /// As Foundation's default `.iso8601` style writes a date: the fraction dropped, not
    /// rounded (the web host's templates show entry dates this way).
    public static func wholeSecondString(from date: Date) -> String {
        string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// Whole seconds print without a fraction, so round-tripped dates look as they were written.
    /// Fractions print to the nearest millisecond. Foundation's fractional style truncates, and
    /// `.255` parses to a `Double` just below it, so its output drifted by a millisecond on every
    /// round trip (found by `scripts/fuzz`); the fraction is therefore written here from an
    /// integer count of milliseconds.
    ///
    /// A date past `SupportedDates` is written as its first or last millisecond: such a date
    /// only comes of arithmetic on a virtual clock at the edge of the range (a hold or a
    /// window an hour past 9999-12-31T23:00:00Z), and every date widgetd writes must be one it
    /// reads back.
    public static func string(from date: Date) -> String {
        let date = min(max(date, SupportedDates.earliest), SupportedDates.lastWritten)
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude < 1e17 else { return date.formatted(whole) }
        var (seconds, fraction) = Int64(milliseconds).quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        guard let text = civil(seconds, milliseconds: fraction) else {
            let text = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(whole)
            guard fraction != 0, text.hasSuffix("Z") else { return text }
            let digits = String(fraction)
            return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
        }
        return text
    }

    /// `YYYY-MM-DDThh:mm:ss[.mmm]Z` worked out with integers (the civil-from-days algorithm),
    /// for years 1583 to 9999, as Foundation's ISO 8601 style writes them: every answer and
    /// stored donation carries dates, and the format style was a tenth of a donation's cost.
    /// nil outside those years (before 1583 Foundation counts in the Julian calendar).
    static func civil(_ seconds: Int64, milliseconds: Int64) -> String? {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let civil = CivilDate(daysSinceEpoch: Int(days))
        let (year, month, day) = (Int64(civil.year), Int64(civil.month), Int64(civil.day))
        guard (1583...9999).contains(year) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 3600 / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        if milliseconds != 0 {
            bytes.append(UInt8(ascii: "."))
            digits(milliseconds, 3)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
