import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One measured figure, written as one JSON line to the `--figures` file (appended; the file is
/// created when missing) with exactly the keys `id`, `figure`, `widgetd`, `reference`, `unit`,
/// `ratio`, `target`, `met`, `notes`. `reference`, `ratio` and `met` are written as `null`
/// when absent (a report-only figure has `met: null`).
///
/// Named `ScaleFigure` so that it does not clash with the `Figure` of widgetd-load.
public struct ScaleFigure: Codable, Sendable, Equatable {
    public var id: String
    public var figure: String
    public var widgetd: Double
    public var reference: Double?
    public var unit: String
    public var ratio: Double?
    public var target: String
    public var met: Bool?
    public var notes: String

    public init(
        id: String, figure: String, widgetd: Double, reference: Double?, unit: String, ratio: Double?, target: String,
        met: Bool?, notes: String
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
    }

    private enum CodingKeys: String, CodingKey {
        case id, figure, widgetd, reference, unit, ratio, target, met, notes
    }

    /// Optionals are written as explicit `null`s: every line has all nine keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(figure, forKey: .figure)
        try container.encode(Self.finite(widgetd), forKey: .widgetd)
        if let reference { try container.encode(Self.finite(reference), forKey: .reference) } else { try container.encodeNil(forKey: .reference) }
        try container.encode(unit, forKey: .unit)
        if let ratio, ratio.isFinite { try container.encode(ratio, forKey: .ratio) } else { try container.encodeNil(forKey: .ratio) }
        try container.encode(target, forKey: .target)
        if let met { try container.encode(met, forKey: .met) } else { try container.encodeNil(forKey: .met) }
        try container.encode(notes, forKey: .notes)
    }

    /// JSON has no NaN or infinity; such a value is written as -1 (and the notes say why).
    private static func finite(_ value: Double) -> Double { value.isFinite ? value : -1 }

    /// The figure as one JSON line (no trailing newline).
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Appends the figure as one line to `path`, creating the file when missing. One `write`
    /// call with `O_APPEND`, so lines of tools running side by side do not interleave.
    public func append(to path: String) throws {
        let line = try jsonLine() + "\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else {
            throw ScaleFigureError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes = Array(line.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw ScaleFigureError("cannot append to \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A few human-readable lines for stdout.
    public var humanReadable: String {
        var text = "\(figure)\n  widgetd:   \(Self.format(widgetd)) \(unit)"
        if let reference { text += "\n  reference: \(Self.format(reference)) \(unit)" }
        if let ratio { text += "\n  ratio:     \(Self.format(ratio))" }
        let verdict = met.map { $0 ? "met" : "NOT met" } ?? "report only"
        text += "\n  target:    \(target) (\(verdict))"
        if !notes.isEmpty { text += "\n  notes:     \(notes)" }
        return text
    }

    /// Prints the figure and, when `path` is given, appends its line there.
    public func emit(to path: String?) throws {
        print(humanReadable)
        fflush(nil)
        if let path { try append(to: path) }
    }

    /// Numbers as a person reads them: 3 significant decimals for small values, grouped for large.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let magnitude = abs(value)
        if magnitude >= 1000 { return String(format: "%.0f", value) }
        if magnitude >= 100 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.4g", value)
    }
}

public struct ScaleFigureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
