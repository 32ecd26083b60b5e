import Foundation
import WidgetWire

/// Reading the request and turning it into the contexts a provider sees.
extension ProviderRequest {
    static func decode(_ data: Data) throws -> ProviderRequest {
        do {
            return try WidgetJSON.decoder.decode(ProviderRequest.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw WidgetProviderError.badRequest(data.isEmpty ? "empty input" : "not JSON")
            }
            throw WidgetProviderError.badRequest(error.shortDescription(topLevel: "(top level)"))
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
