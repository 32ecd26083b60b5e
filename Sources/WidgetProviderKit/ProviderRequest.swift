import Foundation

/// The JSON widgetd writes on a provider's stdin. The top-level fields describe the first
/// instance; `instances` (timeline only) lists every instance of the launch; `intent` comes with
/// `perform`.
struct ProviderRequest: Decodable, Sendable {
    struct Member: Decodable, Sendable {
        var instance: String?
        var kind: String
        var family: WidgetFamily
        var configuration: [String: JSONValue]?
    }

    var kind: String
    var family: WidgetFamily
    var configuration: [String: JSONValue]?
    var now: Date
    var instance: String?
    var instances: [Member]?
    var isPreview: Bool?
    var parameter: String?
    var search: String?
    var intent: RequestIntent?

    static func decode(_ data: Data) throws -> ProviderRequest {
        do {
            return try ProviderJSON.decoder.decode(ProviderRequest.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw WidgetProviderError.badRequest(data.isEmpty ? "empty input" : "not JSON")
            }
            throw WidgetProviderError.badRequest(error.shortDescription)
        }
    }

    /// The instances to answer for `timeline`: the listed ones, or the top-level one when a
    /// caller sends no list.
    var members: [Member] {
        instances ?? [Member(instance: instance, kind: kind, family: family, configuration: configuration)]
    }

    func context(isPreview: Bool = false) -> TimelineProviderContext {
        TimelineProviderContext(
            kind: kind, family: family, date: now, isPreview: isPreview, instance: nil,
            configuration: ConfigurationValues(configuration ?? [:]))
    }

    func context(for member: Member) -> TimelineProviderContext {
        TimelineProviderContext(
            kind: member.kind, family: member.family, date: now, isPreview: false, instance: member.instance,
            configuration: ConfigurationValues(member.configuration ?? [:]))
    }
}
