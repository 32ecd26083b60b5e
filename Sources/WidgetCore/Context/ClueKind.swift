/// The kinds of context clue an entry's `relevance.when` may name, and a descriptor's `clues`
/// declares (docs/clues.md).
public enum ClueKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Inside a circle on the Earth (GeoClue2).
    case location
    /// A headset or headphones connected (BlueZ).
    case headphones
    /// On battery or on AC (UPower).
    case power
    /// The session locked or unlocked (logind).
    case session
    /// Values a host reported with `context.set`.
    case context

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
