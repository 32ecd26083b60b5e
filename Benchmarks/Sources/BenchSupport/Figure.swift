import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One measured figure: one JSON line in the figures file that every benchmark tool appends
/// to (`--figures FILE`), and one row of `Benchmarks/RESULTS.md`.
///
/// ```json
/// {"id": "rpc.reload.throughput", "figure": "reload requests/s ...", "widgetd": 2400,
///  "reference": 48000, "unit": "requests/s", "ratio": 0.05, "target": "≥ 1.0×", "met": false,
///  "notes": "..."}
/// ```
///
/// - `ratio` is `widgetd / reference` (null without a reference);
/// - `target` is written like `"≥ 1.0×"` or `"≤ 1.5×"` (on the ratio), or like `"≤ 64 MiB"`
///   (on the widgetd value, in the figure's unit); anything else (`"report only"`) is not checked;
/// - `met` is null for report-only figures;
/// - `program`, when known, is what was measured: the path of the program run (in a run of
///   `scripts/bench`, under the folder the Debian package was extracted to), or a sentence saying
///   why no program ran (an in-process figure);
/// - `pairs`, only in figures measured as alternating pairs of runs (see `Figure+Pairs.swift`),
///   holds each pair's two values and ratio; `widgetd` and `reference` are then the medians of
///   the raw values and `ratio` the median of the pairs' ratios.
public struct Figure: Codable, Sendable, Equatable {
    public var id: String
    public var figure: String
    public var widgetd: Double
    public var reference: Double?
    public var unit: String
    public var ratio: Double?
    public var target: String
    public var met: Bool?
    public var notes: String
    public var pairs: [Pair]?
    public var program: String?

    /// One pair of runs, widgetd's and the reference's, measured one after the other.
    public struct Pair: Codable, Sendable, Equatable {
        public var widgetd: Double
        public var reference: Double
        public var ratio: Double

        public init(widgetd: Double, reference: Double) {
            self.widgetd = widgetd
            self.reference = reference
            ratio = reference != 0 ? widgetd / reference : .nan
        }

        private enum CodingKeys: String, CodingKey { case widgetd, reference, ratio }

        /// A value that is not finite becomes `null`, as in the figure itself.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in [(CodingKeys.widgetd, widgetd), (.reference, reference), (.ratio, ratio)] {
                if value.isFinite { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            widgetd = try container.decodeIfPresent(Double.self, forKey: .widgetd) ?? .nan
            reference = try container.decodeIfPresent(Double.self, forKey: .reference) ?? .nan
            ratio = try container.decodeIfPresent(Double.self, forKey: .ratio) ?? .nan
        }
    }

    /// Everything given; nothing computed.
    public init(
        id: String, figure: String, widgetd: Double, reference: Double?, unit: String, ratio: Double?, target: String,
        met: Bool?, notes: String, pairs: [Pair]? = nil
    ) {
        self.id = id
        self.figure = figure
        self.widgetd = widgetd
        self.reference = reference
        self.unit = unit
        self.ratio = ratio
        self.target = target
        self.met = met
        self.notes = notes
        self.pairs = pairs
    }

    /// The same figure, saying what it measured (see `program`).
    public func measuring(_ program: String) -> Figure {
        var figure = self
        figure.program = program
        return figure
    }

    /// Computes `ratio` (widgetd / reference) and `met` (from `target`). Use the target
    /// `"report only"` (or any text that is not a comparison) for a figure without a goal.
    public init(
        id: String, figure: String, widgetd: Double, reference: Double? = nil, unit: String, target: String = "report only",
        notes: String = ""
    ) {
        let ratio: Double? = reference.flatMap { reference in
            guard reference != 0, reference.isFinite, widgetd.isFinite else { return nil }
            return widgetd / reference
        }
        self.init(
            id: id, figure: figure, widgetd: widgetd, reference: reference, unit: unit, ratio: ratio, target: target,
            met: Figure.evaluate(target: target, widgetd: widgetd, ratio: ratio), notes: notes)
    }

    // MARK: Targets

    /// A parsed target: a comparison with a bound, on the ratio (`×`) or on the value.
    public struct Target: Sendable, Equatable {
        public enum Comparison: Sendable { case atLeast, atMost }
        public var comparison: Comparison
        public var bound: Double
        public var onRatio: Bool

        /// `"≥ 1.0×"`, `"<= 1.5x"`, `"≤ 64 MiB"`, `">= 1000 requests/s"`; nil for anything else.
        public init?(_ text: String) {
            var rest = Substring(text.trimmingCharacters(in: .whitespaces))
            if rest.hasPrefix("≥") {
                comparison = .atLeast
                rest = rest.dropFirst()
            } else if rest.hasPrefix(">=") {
                comparison = .atLeast
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("≤") {
                comparison = .atMost
                rest = rest.dropFirst()
            } else if rest.hasPrefix("<=") {
                comparison = .atMost
                rest = rest.dropFirst(2)
            } else {
                return nil
            }
            rest = rest.drop(while: { $0 == " " })
            let number = rest.prefix(while: { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" })
            guard let bound = Double(number) else { return nil }
            self.bound = bound
            let unit = rest.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
            onRatio = unit == "×" || unit == "x" || unit == "X"
        }

        public func holds(for value: Double) -> Bool {
            switch comparison {
            case .atLeast: value >= bound
            case .atMost: value <= bound
            }
        }
    }

    /// Whether `target` is met: on the ratio for `×` targets (unknown without a ratio), on
    /// the widgetd value otherwise; nil for a report-only target.
    public static func evaluate(target: String, widgetd: Double, ratio: Double?) -> Bool? {
        guard let parsed = Target(target) else { return nil }
        if parsed.onRatio {
            guard let ratio, ratio.isFinite else { return nil }
            return parsed.holds(for: ratio)
        }
        guard widgetd.isFinite else { return nil }
        return parsed.holds(for: widgetd)
    }

    // MARK: JSON lines

    private enum CodingKeys: String, CodingKey {
        case id, figure, widgetd, reference, unit, ratio, target, met, notes, pairs, program
    }

    /// Writes every key, `null` included, in the documented order; a value that is not finite
    /// becomes `null` (JSON has no NaN).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(figure, forKey: .figure)
        if widgetd.isFinite { try container.encode(widgetd, forKey: .widgetd) } else { try container.encodeNil(forKey: .widgetd) }
        if let reference, reference.isFinite { try container.encode(reference, forKey: .reference) } else { try container.encodeNil(forKey: .reference) }
        try container.encode(unit, forKey: .unit)
        if let ratio, ratio.isFinite { try container.encode(ratio, forKey: .ratio) } else { try container.encodeNil(forKey: .ratio) }
        try container.encode(target, forKey: .target)
        if let met { try container.encode(met, forKey: .met) } else { try container.encodeNil(forKey: .met) }
        try container.encode(notes, forKey: .notes)
        try container.encodeIfPresent(pairs, forKey: .pairs)
        try container.encodeIfPresent(program, forKey: .program)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        figure = try container.decode(String.self, forKey: .figure)
        widgetd = try container.decodeIfPresent(Double.self, forKey: .widgetd) ?? .nan
        reference = try container.decodeIfPresent(Double.self, forKey: .reference)
        unit = try container.decode(String.self, forKey: .unit)
        ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
        target = try container.decodeIfPresent(String.self, forKey: .target) ?? "report only"
        met = try container.decodeIfPresent(Bool.self, forKey: .met)
        notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
        pairs = try container.decodeIfPresent([Pair].self, forKey: .pairs)
        program = try container.decodeIfPresent(String.self, forKey: .program)
    }

    /// The figure as one JSON line, without the newline, with the keys in the documented order
    /// (JSONEncoder does not keep declaration order on Linux).
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func text<T: Encodable>(_ value: T?) throws -> String {
            guard let value else { return "null" }
            if let number = value as? Double, !number.isFinite { return "null" }
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        var fields: [(String, String)] = [
            ("id", try text(id)), ("figure", try text(figure)), ("widgetd", try text(widgetd)),
            ("reference", try text(reference)), ("unit", try text(unit)), ("ratio", try text(ratio)),
            ("target", try text(target)), ("met", try text(met)), ("notes", try text(notes)),
        ]
        if let pairs {
            let items = try pairs.map {
                "{\"widgetd\": \(try text($0.widgetd)), \"reference\": \(try text($0.reference)), \"ratio\": \(try text($0.ratio))}"
            }
            fields.append(("pairs", "[" + items.joined(separator: ", ") + "]"))
        }
        if let program { fields.append(("program", try text(program))) }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Appends the figure as one line to `path` (created if missing, with its folder). One
    /// `write` with `O_APPEND`, so tools appending to the same file never interleave lines.
    public func append(to path: String) throws {
        let line = Array((try jsonLine() + "\n").utf8)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FigureError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw FigureError("cannot append to \(path): \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
    }

    /// Appends to `path` and prints the figure for a human (the usual way to record one).
    public func record(to path: String) throws {
        try append(to: path)
        print(humanReadable)
    }

    /// Every figure in a figures file, in file order. Blank lines are skipped; a line that
    /// does not parse is an error naming its line number.
    public static func load(from path: String) throws -> [Figure] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FigureError("cannot read \(path): \(error.localizedDescription)")
        }
        var figures: [Figure] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { !$0.isWhitespace }) else { continue }
            do {
                figures.append(try JSONDecoder().decode(Figure.self, from: Data(line.utf8)))
            } catch {
                throw FigureError("\(path):\(number + 1): not a figure: \(error)")
            }
        }
        return figures
    }

    // MARK: For humans

    /// Two or three lines: the figure, widgetd against the reference, the ratio and target.
    public var humanReadable: String {
        var text = "● \(figure) [\(id)]\n"
        text += "    widgetd: \(Figure.format(widgetd, unit: unit))"
        if let reference { text += "   reference: \(Figure.format(reference, unit: unit))" }
        if let ratio { text += "   ratio: \(Figure.formatRatio(ratio))" }
        text += "   target: \(target)"
        switch met {
        case true?: text += " ✓ met"
        case false?: text += " ✗ not met"
        case nil: break
        }
        if !notes.isEmpty { text += "\n    \(notes)" }
        return text
    }

    /// A number with its unit, to about three significant digits: `48,213 requests/s`,
    /// `4.27 ms`, `0.0123 ms`.
    public static func format(_ value: Double, unit: String) -> String {
        let number = formatNumber(value)
        return unit.isEmpty ? number : "\(number) \(unit)"
    }

    public static func formatNumber(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        let magnitude = abs(value)
        if magnitude >= 1000 { return grouped(Int64(value.rounded())) }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        if magnitude == 0 { return "0" }
        return String(format: "%.3g", value)
    }

    public static func formatRatio(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "—" }
        if abs(ratio) >= 100 { return grouped(Int64(ratio.rounded())) + "×" }
        if abs(ratio) >= 0.01 { return String(format: "%.2f×", ratio) }
        return String(format: "%.3g×", ratio)
    }

    private static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}

public struct FigureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
