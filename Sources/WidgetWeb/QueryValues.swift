import Foundation
import WidgetCore

/// A request's query read as browsers write it: `application/x-www-form-urlencoded`, where `+`
/// is a space and everything else is percent-encoded (`URLSearchParams`, HTML forms). Every
/// route reads its query through this, so a value means the same wherever it is used.
struct QueryValues: Sendable {
    private var values: [String: String] = [:]

    /// `query` as it came, still encoded; the first value of a repeated key counts.
    init(_ query: String?) throws(QueryError) {
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(parts[0], what: "a query key")
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", what: "the value of '\(key)'")
            if values[key] == nil { values[key] = value }
        }
    }

    /// `+` first, then the percent escapes: `%2B` stays a plus sign.
    static func decode(_ text: Substring, what: String) throws(QueryError) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else {
            throw QueryError("\(what) is not valid percent-encoded UTF-8: '\(text)'")
        }
        return decoded
    }

    func string(_ key: String) -> String? { values[key] }

    /// The values that are not empty as a JSON object of strings, for a method's params.
    func object() -> Data {
        Data(JSONValue.object(values.filter { !$0.value.isEmpty }.mapValues(JSONValue.string)).compactText.utf8)
    }

    /// A finite number within `range`, or `standard` when the query has no `key`.
    func number(_ key: String, standard: Double, in range: ClosedRange<Double>, excludingLower: Bool = false, _ meaning: String)
        throws(QueryError) -> Double
    {
        guard let text = values[key] else { return standard }
        guard let value = Double(text), value.isFinite, range.contains(value), !(excludingLower && value == range.lowerBound) else {
            throw QueryError("\(key): \(meaning), got '\(text)'")
        }
        return value
    }

    /// A whole number within `range`, or `standard` when the query has no `key`.
    func integer(_ key: String, standard: Int, in range: ClosedRange<Int>) throws(QueryError) -> Int {
        guard let text = values[key] else { return standard }
        guard let value = Int(text), range.contains(value) else {
            throw QueryError("\(key): a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }
}

/// A query value no route can use: answered 400 with this message.
struct QueryError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
