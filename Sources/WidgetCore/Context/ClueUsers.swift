/// The instances whose current timeline names each kind of clue: a clue that changes
/// re-evaluates the stacks holding them and no other, and the location source runs only while
/// some instance uses a location clue.
public struct ClueUsers: Sendable, Equatable {
    private var byKind: [ClueKind: Set<InstanceID>] = [:]

    public init() {}

    /// The instances that use `kind`.
    public func instances(using kind: ClueKind) -> Set<InstanceID> {
        byKind[kind] ?? []
    }

    /// Whether some instance uses `kind`.
    public func inUse(_ kind: ClueKind) -> Bool {
        !(byKind[kind]?.isEmpty ?? true)
    }

    /// The instance's timeline now uses `kinds` (and no other).
    mutating func set(_ id: InstanceID, _ kinds: Set<ClueKind>) {
        for kind in ClueKind.allCases {
            if kinds.contains(kind) {
                byKind[kind, default: []].insert(id)
            } else if byKind[kind]?.remove(id) != nil, byKind[kind]?.isEmpty == true {
                byKind[kind] = nil
            }
        }
    }

    mutating func remove(_ id: InstanceID) {
        set(id, [])
    }
}
