import Foundation

/// The instants widgetd takes anywhere (the virtual clock, entry dates, relevance windows,
/// policies, donations): years 1 to 9999, the dates ISO 8601 writes with four digits. Far
/// past them a `Date` loses whole seconds, adding an interval can give the same instant back
/// or infinity, and the schedule, which relies on time moving forward, would stall or carry a
/// non-finite number into answers.
public enum SupportedDates {
    /// 0001-01-01T00:00:00Z as Foundation reads it (in the Julian calendar, as every date
    /// before 1583), so that the first day written in four digits is taken.
    public static let earliest = Date(timeIntervalSince1970: -62_135_769_600)
    /// 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)
    /// 10000-01-01T00:00:00Z: the first instant past year 9999 (`latest` may have a fraction).
    public static let end = Date(timeIntervalSince1970: 253_402_300_800)

    /// 9999-12-31T23:59:59.999Z: the last instant ISO 8601 text with milliseconds can say.
    public static let lastWritten = Date(timeIntervalSince1970: 253_402_300_799.999)

    public static func contains(_ date: Date) -> Bool {
        date >= earliest && date < end
    }

    /// For error messages.
    public static let text = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z"
    public static let latestText = "9999-12-31T23:59:59Z"
}
