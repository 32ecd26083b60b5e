import Foundation

extension DecodingError {
    var hasCodingPath: Bool {
        switch self {
        case .keyNotFound: true
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            !context.codingPath.isEmpty
        @unknown default: true
        }
    }

    /// `params.family: expected String`-style text: the path and what was wrong.
    public func readable(root: String) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(root) { text, key in
                if let index = key.intValue { return "\(text)[\(index)]" }
                return text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)"
            }
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type)), got null"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "\(type)".contains("Array") ? "an array" : "an object"
        }
    }
}
