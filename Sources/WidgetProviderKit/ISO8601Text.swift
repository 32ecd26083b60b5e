import Foundation

/// ISO 8601 with a zone (`Z` or `+09:00`), fractional seconds optional.
enum ISO8601Text {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func date(from text: String) -> Date? {
        if let date = try? fractional.parse(text) { return date }
        return try? whole.parse(text)
    }

    /// Whole seconds print without a fraction, so a request's `now` comes back as written.
    static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded() == seconds ? date.formatted(whole) : date.formatted(fractional)
    }
}
