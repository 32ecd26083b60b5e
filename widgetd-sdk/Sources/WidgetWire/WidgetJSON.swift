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
