import WidgetCore

// Stand-in until the context state lands (the clues part owns the real `observe` and
// `usesLocationClue`): the readings are only logged, so the watchers can be seen working.
extension Engine {
    /// What the session's sources report, in one step.
    func observe(_ readings: [ContextReading]) {
        for reading in readings {
            io.logger.info("context reading", metadata: ["reading": "\(Self.describe(reading))"])
        }
    }

    /// Whether some instance's timeline uses a location clue (GeoClue runs only then).
    var usesLocationClue: Bool { false }

    /// A reading as the log may show it: a location only as known or unknown.
    nonisolated static func describe(_ reading: ContextReading) -> String {
        func text(_ value: Bool?) -> String { value.map { String($0) } ?? "unknown" }
        switch reading {
        case .locked(let value): return "locked=\(text(value))"
        case .idle(let value): return "idle=\(text(value))"
        case .onBattery(let value): return "onBattery=\(text(value))"
        case .powerProfile(let value): return "powerProfile=\(value ?? "unknown")"
        case .headphones(let value): return "headphones=\(text(value))"
        case .location(let point): return "location=\(point == nil ? "unknown" : "known")"
        case .source(let source, let available): return "source \(source.rawValue)=\(available ? "present" : "missing")"
        }
    }
}
