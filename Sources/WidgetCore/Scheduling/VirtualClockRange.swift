import Foundation

/// The instants the virtual clock may show: years 1 to 9999, the dates ISO 8601 writes with
/// four digits. Far past them a `Date` loses whole seconds, adding an interval can give the
/// same instant back or infinity, and the schedule, which relies on time moving forward,
/// would stall or carry a non-finite number into answers.
public enum VirtualClockRange {
    /// 0001-01-01T00:00:00Z.
    public static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    /// 9999-12-31T23:59:59Z.
    public static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    public static func contains(_ date: Date) -> Bool {
        date >= earliest && date <= latest
    }

    /// For error messages.
    public static let text = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z"
}
