import Foundation

/// Routes a request to the provider of its kind, per instance, and encodes the answer.
struct BundleDispatcher: Sendable {
    private let configurations: [any WidgetConfiguration]

    init(_ configurations: [any WidgetConfiguration]) {
        self.configurations = configurations
    }

    func answer(verb: String, request data: Data) async throws -> Data {
        guard ["timeline", "snapshot", "placeholder", "options"].contains(verb) else {
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
            let members = request.members
            let servings = try members.map { try serving($0.kind) }
            let timelines = try await timelines(servings.enumerated().map { ($1, request.context(for: members[$0])) })
            return try encode(TimelinesAnswer(timelines: timelines))
        case "snapshot":
            let context = request.context(isPreview: request.isPreview ?? false)
            return try encode(try await serving(request.kind).snapshot(in: context))
        case "placeholder":
            let context = request.context(isPreview: request.isPreview ?? false)
            return try encode(try serving(request.kind).placeholder(in: context))
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
    private func timelines(_ work: [(any KindServing, TimelineProviderContext)]) async throws -> [WireTimeline] {
        try await withThrowingTaskGroup(of: (Int, WireTimeline).self) { group in
            for (index, (serving, context)) in work.enumerated() {
                group.addTask { (index, try await serving.timeline(in: context)) }
            }
            var results = [WireTimeline?](repeating: nil, count: work.count)
            for try await (index, timeline) in group {
                results[index] = timeline
            }
            return results.compactMap { $0 }
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
        try ProviderJSON.encoder.encode(value)
    }
}

private struct TimelinesAnswer: Encodable {
    let timelines: [WireTimeline]
}

private struct OptionsAnswer: Encodable {
    let options: [IntentOption]
}
