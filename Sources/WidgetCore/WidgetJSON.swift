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
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 date with a zone")
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

    public static func date(from text: String) -> Date? {
        if let date = try? fractional.parse(text) { return date }
        return try? whole.parse(text)
    }

    /// Whole seconds print without a fraction, so round-tripped dates look as they were written.
    /// Fractions print to the nearest millisecond. Foundation's fractional style truncates, and
    /// `.255` parses to a `Double` just below it, so its output drifted by a millisecond on every
    /// round trip (found by `scripts/fuzz`); the fraction is therefore written here from an
    /// integer count of milliseconds.
    public static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude < 1e17 else { return date.formatted(whole) }
        var (seconds, fraction) = Int64(milliseconds).quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1000
        }
        let text = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(whole)
        guard fraction != 0, text.hasSuffix("Z") else { return text }
        let digits = String(fraction)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
