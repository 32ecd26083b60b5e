import WidgetWire

extension KindServing {
    /// The perform verb for any kind: the intent is decoded as the declared type of that name,
    /// then performed.
    func perform(_ requested: ProviderRequest.Intent, in context: TimelineProviderContext) async throws -> IntentResult {
        guard let type = actions.first(where: { $0.intentType == requested.type }) else {
            throw WidgetProviderError.unknownIntent(kind: kind, type: requested.type, declared: actions.map { $0.intentType })
        }
        return try await decode(type, from: requested).perform(in: context)
    }

    private func decode<Intent: WidgetActionIntent>(_ type: Intent.Type, from requested: ProviderRequest.Intent) throws -> Intent {
        do {
            let data = try WidgetJSON.encoder.encode(JSONValue.object(requested.parameters ?? [:]))
            return try WidgetJSON.decoder.decode(Intent.self, from: data)
        } catch let error as DecodingError {
            throw WidgetProviderError.badIntent(type: requested.type, reason: error.shortDescription(topLevel: "(top level)"))
        }
    }
}
