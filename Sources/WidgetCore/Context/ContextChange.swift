/// What one observation changed in the context: the clues whose value is different now (for
/// the stacks to evaluate again), the host keys among them, and whether the budget's
/// conditions (locked, on battery, power-saver) changed (for held reloads).
public struct ContextChange: Sendable, Equatable {
    public var clues: Set<ClueKind> = []
    /// The host values set, changed or removed.
    public var hostKeys: Set<String> = []
    public var budget = false
    /// Sources that appeared or went away.
    public var sources: Set<ContextSource> = []

    public init() {}

    public var isEmpty: Bool { clues.isEmpty && hostKeys.isEmpty && !budget && sources.isEmpty }

    mutating func formUnion(_ other: ContextChange) {
        clues.formUnion(other.clues)
        hostKeys.formUnion(other.hostKeys)
        budget = budget || other.budget
        sources.formUnion(other.sources)
    }
}
