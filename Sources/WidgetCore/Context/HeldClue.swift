import Foundation

/// The alternative of an entry's `when` that holds now, as `explain` and the decision log show
/// it: every condition as the entry gave it, except a region, which is told only as "inside
/// the region of the entry of DATE": where the machine is never leaves the state.
public struct HeldClue: Sendable, Hashable, Codable {
    public var location: String?
    public var headphones: Bool?
    public var power: String?
    public var session: String?
    public var context: [String: String]?

    public init(_ alternative: ClueAlternative, entryDate: Date) {
        location = alternative.location.map { _ in "inside the region of the entry of \(ISO8601.string(from: entryDate))" }
        headphones = alternative.headphones
        power = alternative.power?.rawValue
        session = alternative.session?.rawValue
        context = alternative.context
    }

    /// One line: `location inside the region of the entry of …, headphones`.
    public var text: String {
        var parts: [String] = []
        if let location { parts.append("location \(location)") }
        if let headphones { parts.append(headphones ? "headphones" : "no headphones") }
        if let power { parts.append("on \(power)") }
        if let session { parts.append(session) }
        if let context { parts.append(context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) }
        return parts.joined(separator: ", ")
    }
}
