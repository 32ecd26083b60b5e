import Foundation

/// A stack's ranking now and why its top is what it is (`explain`).
public struct StackExplanation: Sendable {
    public var state: StackState
    /// In stack order.
    public var candidates: [RankedCandidate]
    /// The best-ranked eligible candidate, if any has a signal.
    public var best: InstanceID?
    public var why: String
}

extension DaemonState {
    public func explain(_ name: String, at now: Date) throws(StateError) -> StackExplanation {
        let state = try stack(name)
        let candidates = rankedCandidates(state, at: now)
        let settings = settings.rotation
        // Of equal ranks the first in the stack, as rotation decides.
        let best = candidates.filter { $0.hasSignal(settings) }.max { $0.rank < $1.rank }
        let top = candidates.first { $0.instance == state.top }
        var why: String
        if !state.smartRotate {
            why = "Smart Rotate is off: the top changes only when the user swipes."
        } else if let hold = state.holdUntil, now < hold {
            why = "The user chose \(state.top ?? "-"); Smart Rotate holds off until \(ISO8601.string(from: hold))."
        } else if let best {
            let ranks = Self.bestRank(best, among: candidates.filter { $0.hasSignal(settings) })
            if best.instance == state.top {
                why = "\(ranks)."
            } else if let since = state.topSince, now < since.addingTimeInterval(settings.minimumDwell) {
                why = "\(ranks) but the top stays until \(ISO8601.string(from: since.addingTimeInterval(settings.minimumDwell))) (minimum dwell)."
            } else if state.rotations.filter({ $0 > now.addingTimeInterval(-3600) }).count >= settings.hourlyCap {
                why = "\(ranks); the hourly cap of \(settings.hourlyCap) rotations holds it back."
            } else if best.rank < (top?.rank ?? 0) + settings.margin {
                why = "\(ranks) but does not beat the top (\(Self.format(top?.rank ?? 0))) by the margin \(Self.format(settings.margin))."
            } else {
                why = "\(ranks) and rotates in at the next evaluation."
            }
        } else {
            why = "No instance has a signal (relevance or donations): the top is the user's choice, \(state.home ?? "-")."
        }
        // The clue that makes the best count, in the words `context` uses: never where.
        if let clue = best?.clue {
            why += " \(best!.instance)'s relevance counts while its clue holds: \(clue.text)."
        }
        return StackExplanation(state: state, candidates: candidates, best: best?.instance, why: why)
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// "A ranks best (0.800)", naming the candidates that tie with it and what broke the tie:
    /// of exactly equal ranks the first in stack order goes first; ranks that only print the
    /// same are told apart by how little they differ.
    public static func bestRank(_ best: RankedCandidate, among eligible: [RankedCandidate]) -> String {
        let shown = format(best.rank)
        let others = eligible.filter { $0.instance != best.instance && format($0.rank) == shown }
        let equal = others.filter { $0.rank == best.rank }.map(\.instance)
        let close = others.filter { $0.rank != best.rank }.map(\.instance)
        var text = "\(best.instance) ranks best (\(shown))"
        if !equal.isEmpty {
            text += ", tied with \(equal.joined(separator: ", ")): of equal ranks the first in stack order goes first"
        }
        if !close.isEmpty {
            text += "\(equal.isEmpty ? "," : ";") ahead of \(close.joined(separator: ", ")) by less than 0.001"
        }
        return text
    }
}
