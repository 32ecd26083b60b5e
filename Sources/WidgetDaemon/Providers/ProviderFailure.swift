import Foundation
import WidgetCore

/// Why a launch produced no usable answer. The text is what the log and `timeline` show.
public enum ProviderFailure: Error, Sendable, CustomStringConvertible, Equatable {
    case spawnFailed(String)
    case timedOut(TimeInterval)
    case exited(Int32, stderr: String)
    case signaled(Int32, stderr: String)
    case answerTooLarge(Int)
    case invalidAnswer(String)
    /// A failure a launch's limit explains: `setting` is the key (`memory-max`, `cpu-max`),
    /// `limit` its value as the reason shows it.
    indirect case pastLimit(setting: String, limit: String, ProviderFailure)

    public var description: String {
        switch self {
        case .spawnFailed(let reason): "could not start: \(reason)"
        case .timedOut(let seconds): "timed out after \(Self.seconds(seconds)) and was killed"
        case .exited(let code, let stderr): "exited with status \(code)" + Self.tail(stderr)
        case .signaled(let signal, let stderr): "killed by signal \(signal)" + Self.tail(stderr)
        case .answerTooLarge(let limit): "answer longer than \(limit) bytes"
        // The reason quotes the provider's answer (a bad value, a key, `{"error": ...}`): one
        // printable line of bounded length, whatever the provider sent.
        case .invalidAnswer(let reason): "invalid answer: \(Self.printable(String(reason.prefix(500))))"
        case .pastLimit(let setting, let limit, let failure): "\(failure) (past \(setting) = \(limit))"
        }
    }

    /// The class of the failure, without its varying text: two failures with the same cause
    /// are "the same way" for the log (see `FailureStreaks`).
    public var cause: String {
        switch self {
        case .spawnFailed: "spawn"
        case .timedOut: "timeout"
        case .exited(let code, _): "exit \(code)"
        case .signaled(let signal, _): "signal \(signal)"
        case .answerTooLarge: "too large"
        case .invalidAnswer: "invalid answer"
        case .pastLimit(let setting, _, _): setting
        }
    }

    /// The failure, named for the launch's limit that explains it. RLIMIT_CPU's soft limit
    /// sends SIGXCPU. A failed allocation is seen only by the program, which exits or
    /// aborts in its own way; the reason names `memory-max` when its last words say it ran
    /// out of memory (Perl's "Out of memory!", Python's MemoryError, bash's "cannot
    /// allocate", C++'s bad_alloc, Swift's and Go's "out of memory").
    func explained(memoryMax: Int, cpuMax: Int) -> ProviderFailure {
        switch self {
        case .signaled(SIGXCPU, _) where cpuMax > 0:
            return .pastLimit(setting: "cpu-max", limit: "\(cpuMax) s of CPU", self)
        case .exited(_, let stderr), .signaled(_, let stderr):
            let text = stderr.lowercased()
            let memory = ["out of memory", "memoryerror", "cannot allocate", "bad_alloc", "allocation fail", "out of space"]
            guard memoryMax > 0, memory.contains(where: text.contains) else { return self }
            return .pastLimit(setting: "memory-max", limit: "\(memoryMax) bytes", self)
        default:
            return self
        }
    }

    private static func seconds(_ seconds: TimeInterval) -> String {
        seconds.rounded() == seconds ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    private static func tail(_ stderr: String) -> String {
        let trimmed = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "" }
        let lastLine = trimmed.split(separator: "\n").last.map(String.init) ?? trimmed
        // Its end: a long line is mostly what came before the message (a flood of bytes).
        let shown = lastLine.count > 300 ? "…" + lastLine.suffix(300) : lastLine
        return ": \(printable(String(shown)))"
    }

    /// A provider's own text (stderr, a bad answer) made safe for one log line: control
    /// characters are escaped, so a newline cannot start a forged line in the log and an
    /// escape sequence cannot reach a terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
