/// Ids in SQLite's order of text (bytes compared as `memcmp`, a prefix first), so that rows read
/// in that order can be matched by walking along, not looked up: a lookup in a table of a
/// million ids costs a cache miss or two, and a restart would make millions of them.
///
/// A key is an id's first eight bytes as one big-endian number, with its length: comparing two
/// keys settles every comparison except between ids that share their first eight bytes and
/// are not both at most eight bytes long; only those read the ids again.
struct IDOrderKey: Sendable {
    let prefix: UInt64
    let length: UInt32
    /// What the key belongs to (an index into the rows it was made from).
    let row: Int32

    init(_ bytes: some Collection<UInt8>, row: Int) {
        var prefix: UInt64 = 0
        var shift: UInt64 = 56
        for byte in bytes.prefix(8) {
            prefix |= UInt64(byte) << shift
            shift &-= 8
        }
        self.prefix = prefix
        length = UInt32(bytes.count)
        self.row = Int32(row)
    }

    /// -1, 0 or 1 as the id of `self` comes before, is, or comes after the other's; nil when
    /// only their bytes can tell.
    func order(_ other: IDOrderKey) -> Int? {
        if prefix != other.prefix { return prefix < other.prefix ? -1 : 1 }
        guard length <= 8 && other.length <= 8 else { return nil }
        return length == other.length ? 0 : length < other.length ? -1 : 1
    }

    /// The order of two ids by their bytes.
    static func order(_ lhs: some Sequence<UInt8>, _ rhs: some Sequence<UInt8>) -> Int {
        var right = rhs.makeIterator()
        for byte in lhs {
            guard let other = right.next() else { return 1 }
            if byte != other { return byte < other ? -1 : 1 }
        }
        return right.next() == nil ? 0 : -1
    }
}

extension Array where Element == IDOrderKey {
    /// Sorts keys into id order; `id(row)` reads an id when two keys cannot tell.
    mutating func sortByID(_ id: (Int32) -> String) {
        sort { lhs, rhs in
            (lhs.order(rhs) ?? IDOrderKey.order(id(lhs.row).utf8, id(rhs.row).utf8)) < 0
        }
    }
}
