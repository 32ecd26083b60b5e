import Foundation
import WidgetCore

/// Left-aligned columns for human output. Every cell is escaped whole (`Terminal.text`): a
/// name from the daemon stays in its cell, on its row.
struct Table {
    var header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ cells: String...) {
        rows.append(cells.map(Terminal.text))
    }

    func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }

    func print() {
        Swift.print(rows.isEmpty ? render() + "\n(none)" : render())
    }
}

enum Show {
    static func date(_ date: Date?) -> String {
        date.map { ISO8601.string(from: $0) } ?? "-"
    }

    static func json(_ value: JSONValue?, limit: Int = 60) -> String {
        guard let value else { return "-" }
        let text = value.compactText
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// `0.8 for 1h`, or `0.8 until the next relevance` for duration 0.
    static func relevance(_ relevance: EntryRelevance) -> String {
        let score = relevance.score.rounded() == relevance.score ? String(Int(relevance.score)) : String(relevance.score)
        return relevance.duration == 0 ? "\(score) until the next relevance" : "\(score) for \(DurationText.format(relevance.duration))"
    }

    static func configuration(_ configuration: [String: JSONValue]) -> String {
        configuration.isEmpty ? "-" : json(.object(configuration), limit: 40)
    }
}

extension String {
    /// Only trailing: a leading blank is a column (the current-entry marker).
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
