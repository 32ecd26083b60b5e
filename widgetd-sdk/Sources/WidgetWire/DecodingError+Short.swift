extension DecodingError {
    /// One line naming the field, e.g. `.timelines[0].entries[2].date is required` or
    /// `.maxNumber has the wrong type`: the daemon reports a provider's answer this way, and a
    /// provider logs its own faults this way, since the daemon keeps only its last stderr line
    /// and Foundation's description spans several. A path that names no field reads as
    /// `topLevel`.
    public func shortDescription(topLevel: String) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? topLevel : text
        }
        switch self {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is required"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }

    /// As above with nothing for the top level, for text that follows a path of its own
    /// (`.timelines[1]` + this).
    public var shortDescription: String { shortDescription(topLevel: "") }
}
