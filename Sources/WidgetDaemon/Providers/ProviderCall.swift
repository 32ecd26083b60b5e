import Foundation
import WidgetCore
import WidgetProtocol

/// The request of a one-instance verb: `snapshot`, `placeholder` or `options`.
struct ProviderCall: Encodable {
    var verb: String
    var kind: String
    var family: WidgetFamily
    var configuration: [String: JSONValue]
    var now: Date
    var isPreview: Bool?
    var parameter: String?
    var search: String?
}

/// Reads the answers of the one-instance verbs.
enum CallAnswer {
    static func entry(from data: Data) throws(ProviderFailure) -> TimelineEntry {
        try decode(TimelineEntry.self, data)
    }

    static func options(from data: Data) throws(ProviderFailure) -> [EntityOption] {
        struct Options: Decodable { var options: [EntityOption] }
        return try decode(Options.self, data).options
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(ProviderFailure) -> T {
        do {
            return try WidgetJSON.decoder.decode(type, from: data)
        } catch let error as DecodingError {
            do {
                _ = try WidgetJSON.decoder.decode(JSONValue.self, from: data)
            } catch {
                throw .invalidAnswer(TimelineAnswer.notJSON(data))
            }
            throw .invalidAnswer(error.shortDescription)
        } catch {
            throw .invalidAnswer("\(error)")
        }
    }
}
