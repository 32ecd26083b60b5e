import Foundation
import WidgetWire

/// Routes a request to the provider of its kind, per instance, and encodes the answer.
struct BundleDispatcher: Sendable {
    private let configurations: [any WidgetConfiguration]

    init(_ configurations: [any WidgetConfiguration]) {
        self.configurations = configurations
    }

    func answer(verb: String, request data: Data) async throws -> Data {
        guard ["timeline", "snapshot", "placeholder", "options", "relevance", "perform"].contains(verb) else {
            throw WidgetProviderError.unknownVerb(verb)
        }
        let kinds = try servingByKind()
        let request = try ProviderRequest.decode(data)
        func serving(_ kind: String) throws -> any KindServing {
            guard let serving = kinds[kind] else {
                throw WidgetProviderError.unknownKind(kind, served: configurations.map(\.kind))
            }
            return serving
        }
        switch verb {
        case "timeline":
            // One failing instance (an unknown kind, a configuration that does not decode)
            // answers {"error": ...} in its place; the others still get their timelines.
            let members = request.members
            let work = members.map { member in (Result { try serving(member.kind) }, request.context(for: member)) }
            return try encode(WireTimelines(await timelines(work)))
        case "snapshot":
            let context = request.context(isPreview: request.isPreview ?? false)
            return try encode(try await serving(request.kind).snapshot(in: context))
        case "placeholder":
            let context = request.context(isPreview: request.isPreview ?? false)
            return try encode(try serving(request.kind).placeholder(in: context))
        case "perform":
            guard let intent = request.intent else { throw WidgetProviderError.badRequest(".intent is required") }
            let context = request.context(for: request.members[0])
            return try encode(try await serving(request.kind).perform(intent, in: context))
        case "relevance":
            let member = request.members[0]
            return try encode(RelevanceAnswer(relevance: try await serving(request.kind).relevance(in: request.context(for: member))))
        default:
            guard let parameter = request.parameter else {
                throw WidgetProviderError.badRequest(".parameter is required")
            }
            let options = try await serving(request.kind).options(
                for: parameter, matching: request.search, in: request.context())
            return try encode(OptionsAnswer(options: options))
        }
    }

    /// One timeline per instance, in request order. Instances are computed concurrently: a
    /// batch may hold several kinds whose providers wait on I/O.
    private func timelines(_ work: [(Result<any KindServing, any Error>, TimelineProviderContext)]) async -> [WireTimelines.Slot] {
        await withTaskGroup(of: (Int, WireTimelines.Slot).self) { group in
            for (index, (serving, context)) in work.enumerated() {
                group.addTask {
                    do {
                        return (index, .timeline(try await serving.get().timeline(in: context)))
                    } catch {
                        return (index, .error("\(error)"))
                    }
                }
            }
            var results = [WireTimelines.Slot](repeating: .error("not answered"), count: work.count)
            for await (index, slot) in group {
                results[index] = slot
            }
            return results
        }
    }

    private func servingByKind() throws -> [String: any KindServing] {
        var result: [String: any KindServing] = [:]
        for configuration in configurations {
            guard let serving = configuration as? any KindServing else {
                throw WidgetProviderError.unsupportedConfiguration(kind: configuration.kind)
            }
            guard result[configuration.kind] == nil else { throw WidgetProviderError.duplicateKind(configuration.kind) }
            result[configuration.kind] = serving
        }
        return result
    }

    private func encode(_ value: some Encodable) throws -> Data {
        try WidgetJSON.encoder.encode(value)
    }
}

private struct OptionsAnswer: Encodable {
    let options: [IntentOption]
}

private struct RelevanceAnswer: Encodable {
    let relevance: [DatedRelevance]
}
