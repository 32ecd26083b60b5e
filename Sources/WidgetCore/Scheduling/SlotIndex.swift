/// Finds an instance's slot from its id. The ids stay in the slots; the table holds only the
/// slot numbers, each with 32 bits of its id's hash, 8 bytes an entry. A dictionary from id to
/// slot would hold a second copy of every id and read its keys and its values from two
/// separate arrays. Here a probe reads one entry, compares hash bits, and reads a slot only
/// on a match, which is the slot the caller goes on to use.
///
/// Open addressing with linear probing (neighbouring entries share a cache line), at most
/// three quarters full, and removal by shifting back, so no tombstones build up. The home of an
/// entry follows from its stored hash bits alone, so growing never rehashes an id.
struct SlotIndex: Sendable {
    /// 0: empty. Otherwise the id's hash bits above, slot + 1 below.
    private var entries: [UInt64]
    private var shift: Int
    private(set) var count = 0

    init() {
        entries = [UInt64](repeating: 0, count: Self.minimumCapacity)
        shift = 64 - Self.minimumCapacity.trailingZeroBitCount
    }

    /// The slot of `id`, if it has one; `matches` tells whether a slot holds `id`.
    @inline(__always)
    func slot(of id: InstanceID, matches: (Int32) -> Bool) -> Int32? {
        let bits = Self.hashBits(id)
        var index = home(bits)
        while true {
            let entry = entries[index]
            if entry == 0 { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == bits {
                let slot = Int32(truncatingIfNeeded: entry) - 1
                if matches(slot) { return slot }
            }
            index = (index + 1) & (entries.count - 1)
        }
    }

    /// Records `slot` for `id`, which has none yet.
    mutating func insert(_ id: InstanceID, slot: Int32) {
        if (count + 1) * 4 > entries.count * 3 { resize(to: entries.count * 2) }
        place(UInt64(Self.hashBits(id)) << 32 | UInt64(UInt32(bitPattern: slot + 1)))
        count += 1
    }

    /// Forgets `id`, which is at `slot`.
    mutating func remove(_ id: InstanceID, slot: Int32) {
        let entry = UInt64(Self.hashBits(id)) << 32 | UInt64(UInt32(bitPattern: slot + 1))
        let mask = entries.count - 1
        var hole = home(UInt32(truncatingIfNeeded: entry >> 32))
        while entries[hole] != entry {
            guard entries[hole] != 0 else { return }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run that may sit in the hole: one whose home is
        // not cyclically in (hole, index].
        var index = hole
        while true {
            index = (index + 1) & mask
            let next = entries[index]
            if next == 0 { break }
            let nextHome = home(UInt32(truncatingIfNeeded: next >> 32))
            if (index - nextHome) & mask >= (index - hole) & mask {
                entries[hole] = next
                hole = index
            }
        }
        entries[hole] = 0
        count -= 1
    }

    /// Makes room for `count` ids without growing again.
    mutating func reserveCapacity(_ count: Int) {
        var capacity = entries.count
        while count * 4 > capacity * 3 { capacity *= 2 }
        if capacity > entries.count { resize(to: capacity) }
    }

    private static let minimumCapacity = 16

    @inline(__always)
    private static func hashBits(_ id: InstanceID) -> UInt32 {
        let hash = UInt64(UInt(bitPattern: id.hashValue))
        return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }

    /// Fibonacci hashing of the stored bits: the top bits of the product depend on all of them.
    @inline(__always)
    private func home(_ bits: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(bits) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    private mutating func place(_ entry: UInt64) {
        let mask = entries.count - 1
        var index = home(UInt32(truncatingIfNeeded: entry >> 32))
        while entries[index] != 0 { index = (index + 1) & mask }
        entries[index] = entry
    }

    private mutating func resize(to capacity: Int) {
        let old = entries
        entries = [UInt64](repeating: 0, count: capacity)
        shift = 64 - capacity.trailingZeroBitCount
        for entry in old where entry != 0 { place(entry) }
    }
}
