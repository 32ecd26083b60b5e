import Foundation

/// Durations as people type them: `90s`, `10m`, `2h`, `1d`, or plain seconds.
public enum DurationText {
    public static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let (digits, unit) = units[last].map { (String(trimmed.dropLast()), $0) } ?? (trimmed, 1)
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCIIDigit), let value = Double(digits) else {
            return nil
        }
        // Nothing in widgetd waits longer than ten years; larger values are typos.
        let seconds = value * unit
        return seconds <= maximum ? seconds : nil
    }

    public static let maximum: TimeInterval = 10 * 366 * 86400

    /// The shortest exact rendering: `90s`, `10m`, `2h`, `1d`.
    public static func format(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60)] where whole != 0 && whole % size == 0 {
            return "\(whole / size)\(unit)"
        }
        return "\(whole)s"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
