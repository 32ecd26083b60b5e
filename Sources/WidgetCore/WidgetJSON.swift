import Foundation

/// The one JSON dialect of widgetd: sorted keys, ISO 8601 dates with a zone.
/// Shared by the daemon, the store, the CLI and the providers' protocol so that a value
/// encoded anywhere decodes everywhere.
public enum WidgetJSON {
    /// Shared: Foundation's encoders and decoders may be used from many threads at once as long
    /// as nobody changes their options; building one per call cost every request an allocation.
    public static let encoder: JSONEncoder = makeEncoder()
    public static let prettyEncoder: JSONEncoder = {
        let encoder = makeEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return encoder
    }()
    public static let decoder: JSONDecoder = makeDecoder()

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(from: date))
        }
        return encoder
    }

    private static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date with a zone in years 0001 to 9999")
            }
            return date
        }
        return decoder
    }
}

/// ISO 8601 with a zone (`Z` or `+09:00`), fractional seconds optional.
public enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// nil for a date outside `SupportedDates`, such as year 0000.
    public static func date(from text: String) -> Date? {
        guard let date = (try? fractional.parse(text)) ?? (try? whole.parse(text)) else { return nil }
        return SupportedDates.contains(date) ? date : nil
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
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
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
