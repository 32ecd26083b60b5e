import Foundation

extension LiveDate {
    /// Each object of `content` that has a `$date` key but is not a live date, with where it
    /// is and why: such a value is ordinary content, which hosts show as it is, so
    /// `widgetctl push` names it to whoever wrote it (a typo in a style would otherwise show
    /// as JSON in a bar). `path` names `content` itself.
    public static func problems(in content: JSONValue, path: String = "content") -> [String] {
        switch content {
        case .array(let items):
            return items.enumerated().flatMap { problems(in: $0.element, path: "\(path)[\($0.offset)]") }
        case .object(let fields):
            if fields["$date"] != nil {
                return LiveDate(content) == nil ? ["\(path): not a live date, shown as it is: \(problem(fields))"] : []
            }
            return fields.keys.sorted().flatMap { problems(in: fields[$0]!, path: "\(path).\($0)") }
        default:
            return []
        }
    }

    /// Why `fields`, which have `$date`, are not a live date.
    private static func problem(_ fields: [String: JSONValue]) -> String {
        guard case .string(let text)? = fields["$date"], ISO8601.date(from: text) != nil else {
            return "$date must be an ISO 8601 date with a zone (2026-01-05T08:12:00Z), got \(fields["$date"]!.compactText)"
        }
        let styles = Style.allCases.map(\.rawValue).joined(separator: ", ")
        if let style = fields["style"], !(style.stringValue.map { Style(rawValue: $0) != nil } ?? false) {
            return "style must be one of \(styles), got \(style.compactText)"
        }
        let others = fields.keys.filter { $0 != "$date" && $0 != "style" }.sorted()
        return "a live date has only $date and style, not \(others.joined(separator: ", "))"
    }
}
