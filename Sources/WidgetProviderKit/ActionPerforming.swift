/// The intent of a `perform` request: `{"type", "parameters"}`.
struct RequestIntent: Decodable, Sendable {
    var type: String
    var parameters: [String: JSONValue]?
}

extension KindServing {
    /// The perform verb for any kind: the intent is decoded as the declared type of that name,
    /// then performed.
    func perform(_ requested: RequestIntent, in context: TimelineProviderContext) async throws -> IntentResult {
        guard let type = actions.first(where: { $0.intentType == requested.type }) else {
            throw WidgetProviderError.unknownIntent(kind: kind, type: requested.type, declared: actions.map { $0.intentType })
        }
        return try await decode(type, from: requested).perform(in: context)
    }

    private func decode<Intent: WidgetActionIntent>(_ type: Intent.Type, from requested: RequestIntent) throws -> Intent {
        do {
            let data = try ProviderJSON.encoder.encode(JSONValue.object(requested.parameters ?? [:]))
            return try ProviderJSON.decoder.decode(Intent.self, from: data)
        } catch let error as DecodingError {
            throw WidgetProviderError.badIntent(type: requested.type, reason: error.shortDescription)
        }
    }
}
