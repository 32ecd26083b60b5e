import Foundation
import WidgetCore

/// Dates as `WidgetJSON.decoder` reads them (`ISO8601.date(from:)`).
extension JSONCursor {
    /// The common form, `2026-01-05T08:00:00Z` or `...+09:00`, is computed from its digits;
    /// any other text (fractions, lenient forms Foundation also takes, such as `24:00:00` or
    /// `02-30`) goes through `ISO8601.date(from:)` itself, so the result is the same either
    /// way. A string that is no date gives nil.
    mutating func date() -> Date? {
        skipSpace()
        let start = index
        guard let range = stringContent(allowEscapes: true) else { return nil }
        if let date = Self.wholeSecondDate(UnsafeRawBufferPointer(rebasing: bytes[range])) { return date }
        index = start
        guard let text = string() else { return nil }
        return ISO8601.date(from: text)
    }

    /// Years 1900...9999 (Foundation's calendar is proleptic Gregorian there), real calendar
    /// days, zone offsets up to ±14:59: checked against `Date.ISO8601FormatStyle` on 200 000
    /// random dates (RequestScannerTests repeats a smaller sample).
    static func wholeSecondDate(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 20 || text.count == 25 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in at..<(at + count) {
                let byte = text[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func at(_ offset: Int, _ scalar: Unicode.Scalar) -> Bool { text[offset] == UInt8(ascii: scalar) }
        guard at(4, "-"), at(7, "-"), at(10, "T"), at(13, ":"), at(16, ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1900...9999).contains(year), (1...12).contains(month), day >= 1, day <= CivilDate.days(inMonth: month, of: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var offset = 0
        if text.count == 20 {
            guard at(19, "Z") else { return nil }
        } else {
            guard at(19, "+") || at(19, "-"), at(22, ":"), let hours = digits(20, 2), let minutes = digits(23, 2),
                hours <= 14, minutes < 60
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (at(19, "-") ? -1 : 1)
        }
        let days = CivilDate(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
