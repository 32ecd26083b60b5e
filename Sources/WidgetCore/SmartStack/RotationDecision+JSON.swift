import Foundation

/// Rotation decisions written as JSON without `JSONEncoder`, byte for byte what
/// `WidgetJSON.encoder` writes (sorted keys, absent optionals left out). A busy day makes a
/// decision for most stacks every hour, and each one's candidates go to the journal; through
/// `JSONEncoder` that was most of an evaluation's cost.
extension RotationDecision {
    /// The decision as one JSON object; nil when a number in it is not finite (which
    /// `JSONEncoder` refuses to write).
    public var jsonText: String? {
        var out = JSONText(capacity: 256 + 200 * candidates.count)
        out.raw(#"{"candidate":"#)
        out.string(candidate)
        out.raw(#","candidates":"#)
        guard RankedCandidate.write(candidates, to: &out) else { return nil }
        out.raw(#","date":"#)
        out.date(date)
        if let from {
            out.raw(#","from":"#)
            out.string(from)
        }
        out.raw(#","reason":"#)
        out.string(reason.rawValue)
        out.raw(#","stack":"#)
        out.string(stack)
        if let to {
            out.raw(#","to":"#)
            out.string(to)
        }
        out.raw("}")
        return out.text
    }

    /// The candidates as a JSON array (the journal's CANDIDATES field), nil as `jsonText`.
    public var candidatesJSON: String? {
        var out = JSONText(capacity: 200 * candidates.count + 2)
        guard RankedCandidate.write(candidates, to: &out) else { return nil }
        return out.text
    }
}

extension RankedCandidate {
    /// False, with `out` left part-written, when a number is not finite.
    static func write(_ candidates: [RankedCandidate], to out: inout JSONText) -> Bool {
        out.raw("[")
        for (index, candidate) in candidates.enumerated() {
            if index > 0 { out.raw(",") }
            guard candidate.write(to: &out) else { return false }
        }
        out.raw("]")
        return true
    }

    private func write(to out: inout JSONText) -> Bool {
        guard affinity.isFinite, rank.isFinite, relevance.isFinite, score?.isFinite ?? true else { return false }
        out.raw(#"{"affinity":"#)
        out.double(affinity)
        // Rare, and small: written by the encoder, whose sorted keys this text follows.
        out.raw(#","clue":"#)
        if let clue, let data = try? WidgetJSON.encoder.encode(clue) {
            out.raw(json: data)
        } else {
            out.raw("null")
        }
        out.raw(#","donations":"#)
        out.strings(donations)
        if let donationsHidden {
            out.raw(#","donationsHidden":"#)
            out.bool(donationsHidden)
        }
        out.raw(#","eligible":"#)
        out.bool(eligible)
        out.raw(#","instance":"#)
        out.string(instance)
        out.raw(#","rank":"#)
        out.double(rank)
        out.raw(#","relevance":"#)
        out.double(relevance)
        if let relevanceSince {
            out.raw(#","relevanceSince":"#)
            out.date(relevanceSince)
        }
        if let relevanceUntil {
            out.raw(#","relevanceUntil":"#)
            out.date(relevanceUntil)
        }
        if let score {
            out.raw(#","score":"#)
            out.double(score)
        }
        out.raw("}")
        return true
    }
}
