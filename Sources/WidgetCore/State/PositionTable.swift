/// Positions in an array of records by the records' ids: open addressing with linear probing
/// over 32-bit slots. The ids are not stored here but read from the records, so a slot is 4
/// bytes where a `[String: Int]` bucket is 24 (and such a dictionary keeps up to twice as many
/// buckets as keys).
///
/// Every call is given the records (`idAt` reads the id at a position); the table and the
/// records are changed in step by the owner (`InstanceBook`).
struct PositionTable: Sendable {
    private static let empty: Int32 = -1

    private var slots: [Int32] = []
    /// slots.count - 1; slots.count is a power of two.
    private var mask = -1
    private(set) var count = 0

    init() {}

    /// Slots for `capacity` ids at a load of at most 3/4, so a restart grows nothing.
    mutating func reserveCapacity(_ capacity: Int, idAt: (Int32) -> InstanceID) {
        let needed = Self.slotCount(for: capacity)
        if needed > slots.count { rehash(to: needed, idAt: idAt) }
    }

    func position(of id: InstanceID, idAt: (Int32) -> InstanceID) -> Int? {
        guard count > 0 else { return nil }
        var slot = Self.home(id, mask)
        while true {
            let position = slots[slot]
            if position == Self.empty { return nil }
            if idAt(position) == id { return Int(position) }
            slot = (slot + 1) & mask
        }
    }

    /// Records `position` as the place of `id` unless the table has `id` already: false then.
    mutating func insertIfAbsent(_ id: InstanceID, at position: Int, idAt: (Int32) -> InstanceID) -> Bool {
        if 4 * (count + 1) > 3 * slots.count { rehash(to: Self.slotCount(for: count + 1), idAt: idAt) }
        var slot = Self.home(id, mask)
        while slots[slot] != Self.empty {
            if idAt(slots[slot]) == id { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(position)
        count += 1
        return true
    }

    /// Records `position` as the place of `id`, which is not in the table.
    mutating func insert(_ id: InstanceID, at position: Int, idAt: (Int32) -> InstanceID) {
        if 4 * (count + 1) > 3 * slots.count { rehash(to: Self.slotCount(for: count + 1), idAt: idAt) }
        var slot = Self.home(id, mask)
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = Int32(position)
        count += 1
    }

    /// `id`, at `from`, is now at `to` (its record moved).
    mutating func move(_ id: InstanceID, from: Int, to: Int) {
        var slot = Self.home(id, mask)
        while slots[slot] != Int32(from) { slot = (slot + 1) & mask }
        slots[slot] = Int32(to)
    }

    /// Forgets `id`, at `position`; the ids after it in its run move back (no tombstones).
    mutating func remove(_ id: InstanceID, at position: Int, idAt: (Int32) -> InstanceID) {
        var hole = Self.home(id, mask)
        while slots[hole] != Int32(position) { hole = (hole + 1) & mask }
        var next = hole
        while true {
            next = (next + 1) & mask
            let moving = slots[next]
            if moving == Self.empty { break }
            // An id may fill the hole when its home is not in (hole, next], cyclically.
            let home = Self.home(idAt(moving), mask)
            let between = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !between {
                slots[hole] = moving
                hole = next
            }
        }
        slots[hole] = Self.empty
        count -= 1
    }

    private mutating func rehash(to slotCount: Int, idAt: (Int32) -> InstanceID) {
        let old = slots
        slots = Array(repeating: Self.empty, count: slotCount)
        mask = slotCount - 1
        for position in old where position != Self.empty {
            var slot = Self.home(idAt(position), mask)
            while slots[slot] != Self.empty { slot = (slot + 1) & mask }
            slots[slot] = position
        }
    }

    private static func slotCount(for capacity: Int) -> Int {
        var slots = 8
        while 3 * slots < 4 * capacity { slots *= 2 }
        return slots
    }

    private static func home(_ id: InstanceID, _ mask: Int) -> Int {
        id.hashValue & mask
    }
}
