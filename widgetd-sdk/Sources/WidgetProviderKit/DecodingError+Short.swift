extension DecodingError {
    /// One line naming the field, e.g. `.maxNumber has the wrong type`: the daemon logs only
    /// the last stderr line, so Foundation's multi-line description would be lost.
    var shortDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "(top level)" : text
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
}
