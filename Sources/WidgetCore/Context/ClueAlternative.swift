import Foundation

/// One alternative of an entry's `relevance.when`: it holds when every condition it names
/// holds in the context (docs/clues.md). A condition on a value the context does not know
/// never holds.
public struct ClueAlternative: Sendable, Hashable, Codable {
    public var location: ClueRegion?
    public var headphones: Bool?
    public var power: PowerClue?
    public var session: SessionClue?
    /// Host values, each of which must be as given.
    public var context: [String: String]?

    /// At most this many alternatives in one `when`, and host values in one `context`.
    public static let maxAlternatives = 16
    public static let maxContextValues = 16

    public enum PowerClue: String, Sendable, Hashable, Codable { case battery, ac }
    public enum SessionClue: String, Sendable, Hashable, Codable { case locked, unlocked }

    public init(
        location: ClueRegion? = nil, headphones: Bool? = nil, power: PowerClue? = nil, session: SessionClue? = nil,
        context: [String: String]? = nil
    ) {
        self.location = location
        self.headphones = headphones
        self.power = power
        self.session = session
        self.context = context
    }

    private enum CodingKeys: String, CodingKey { case location, headphones, power, session, context }

    public init(from decoder: any Decoder) throws {
        try Self.refuseUnknownKeys(decoder, known: Set(ClueKind.allCases.map(\.rawValue)))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decodeIfPresent(ClueRegion.self, forKey: .location)
        headphones = try container.decodeIfPresent(Bool.self, forKey: .headphones)
        power = try container.decodeIfPresent(PowerClue.self, forKey: .power)
        session = try container.decodeIfPresent(SessionClue.self, forKey: .session)
        context = try container.decodeIfPresent([String: String].self, forKey: .context)
        if let context {
            guard !context.isEmpty, context.count <= Self.maxContextValues, !context.keys.contains("") else {
                throw DecodingError.dataCorruptedError(
                    forKey: .context, in: container,
                    debugDescription: "expected 1 to \(Self.maxContextValues) host values, each with a non-empty key")
            }
        }
        guard !kinds.isEmpty else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "an alternative names at least one of location, headphones, power, session, context"))
        }
    }

    /// The kinds of clue it names.
    public var kinds: Set<ClueKind> {
        var kinds = Set<ClueKind>()
        if location != nil { kinds.insert(.location) }
        if headphones != nil { kinds.insert(.headphones) }
        if power != nil { kinds.insert(.power) }
        if session != nil { kinds.insert(.session) }
        if context != nil { kinds.insert(.context) }
        return kinds
    }

    /// Whether every condition holds in `context`.
    public func holds(in state: ContextState) -> Bool {
        if let location {
            guard let point = state.location.value, location.contains(point) else { return false }
        }
        if let headphones, state.headphones.value != headphones { return false }
        if let power {
            guard let battery = state.onBattery.value, battery == (power == .battery) else { return false }
        }
        if let session {
            guard let locked = state.locked.value, locked == (session == .locked) else { return false }
        }
        if let context {
            for (key, value) in context where state.hostValues[key]?.value != value { return false }
        }
        return true
    }

    /// A condition that is not one of the five is refused, so a misspelt one never quietly
    /// leaves an alternative that always holds.
    static func refuseUnknownKeys(_ decoder: any Decoder, known: Set<String>) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = container.allKeys.map(\.stringValue).filter({ !known.contains($0) }).sorted().first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "unknown key '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))"))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension [ClueAlternative] {
    /// The first alternative that holds in `context`, by index.
    public func firstHolding(in context: ContextState) -> Int? {
        firstIndex { $0.holds(in: context) }
    }

    /// The kinds of clue any alternative names.
    public var clueKinds: Set<ClueKind> {
        reduce(into: []) { $0.formUnion($1.kinds) }
    }
}
