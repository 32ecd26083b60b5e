/// The buckets of a `TimingWheel`: unordered sets of dated handles, each a chain of 128-byte
/// chunks drawn from one pool, with a bitmap of the buckets that hold any.
///
/// A bucket keeps each handle's date and tie beside it (a `SlotHeap.Node`), so moving a bucket
/// down a level, or finding what in it is due, reads its chunks front to back and nothing else;
/// the handles' own records are only written. One flat pool rather than an array per bucket:
/// a bucket's head is an entry in a flat table and its chunks are a few adjacent cache lines,
/// where an array per bucket costs a read of its header and then of its tail, two misses when
/// the bucket is one of thousands (a wheel per provider). Removal moves the head chunk's last
/// node into the hole, so every chunk but the head stays full, and emptied chunks go back to
/// the pool for any bucket.
struct WheelBuckets: Sendable {
    typealias Node = SlotHeap.Node

    /// Chunk `c` is `pool[8 c ..< 8 c + 8]`: a header (`handle`: the next chunk of the chain or
    /// `none`; `tie`: how many nodes follow it), then up to seven nodes. A free chunk's header
    /// chains it to the next free one.
    private var pool: [Node] = []
    private var freeChunk = Self.none
    /// The head chunk of each bucket, or `none`.
    private var heads: [Int32] = []
    /// Bit `bucket & 63` of word `bucket >> 6` is set when the bucket holds a node.
    private var occupied: [UInt64] = []

    static let none: Int32 = -1
    private static let chunkSize = 8
    private static let perChunk = UInt32(chunkSize - 1)

    /// Makes sure there are at least `count` buckets (a multiple of 64).
    @inline(__always)
    mutating func ensure(_ count: Int) {
        if heads.count < count { grow(count) }
    }

    /// Adds `node` to `bucket`; returns its position (its index in the pool).
    @inline(__always)
    mutating func insert(_ node: Node, into bucket: Int) -> Int32 {
        var chunk = Int(heads[bucket])
        if chunk == Int(Self.none) || pool[chunk &* Self.chunkSize].tie == Self.perChunk {
            chunk = newChunk(after: Int32(chunk))
            heads[bucket] = Int32(chunk)
            occupied[bucket >> 6] |= 1 << UInt64(bucket & 63)
        }
        let header = chunk &* Self.chunkSize
        let count = pool[header].tie &+ 1
        pool[header].tie = count
        let position = header &+ Int(count)
        pool[position] = node
        return Int32(position)
    }

    @inline(__always)
    func node(at position: Int32) -> Node { pool[Int(position)] }

    /// Changes the date and tie of the node at `position`, which stays in its bucket.
    @inline(__always)
    mutating func update(at position: Int32, date: Double, tie: UInt32) {
        pool[Int(position)].date = date
        pool[Int(position)].tie = tie
    }

    /// Takes the node at `position` out of `bucket`. Returns the handle moved into its place,
    /// if any, whose position is now `position`.
    @inline(__always)
    mutating func remove(at position: Int32, from bucket: Int) -> Int32? {
        let chunk = Int(heads[bucket])
        let header = chunk &* Self.chunkSize
        let count = pool[header].tie
        let last = header &+ Int(count)
        var moved: Int32?
        if last != Int(position) {
            pool[Int(position)] = pool[last]
            moved = pool[last].handle
        }
        pool[header].tie = count &- 1
        if count == 1 {
            let next = pool[header].handle
            heads[bucket] = next
            release(chunk)
            if next == Self.none { occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63)) }
        }
        return moved
    }

    /// The first bucket at or after `bucket` that holds a node.
    @inline(__always)
    func firstOccupied(from bucket: Int) -> Int? {
        var word = bucket >> 6
        guard word < occupied.count else { return nil }
        var bits = occupied[word] & (~0 << UInt64(bucket & 63))
        while bits == 0 {
            word += 1
            guard word < occupied.count else { return nil }
            bits = occupied[word]
        }
        return word << 6 | bits.trailingZeroBitCount
    }

    /// Calls `body` with every node of `bucket`.
    @inline(__always)
    func forEach(in bucket: Int, _ body: (Node) -> Void) {
        var chunk = heads[bucket]
        while chunk != Self.none {
            let header = Int(chunk) &* Self.chunkSize
            for position in (header &+ 1)..<(header &+ 1 &+ Int(pool[header].tie)) { body(pool[position]) }
            chunk = pool[header].handle
        }
    }

    /// Calls `body` with every node.
    func forEach(_ body: (Node) -> Void) {
        for bucket in heads.indices where heads[bucket] != Self.none { forEach(in: bucket, body) }
    }

    /// Empties `bucket` and returns its chain, to be read with `nodes(of:)` and handed back
    /// chunk by chunk with `next(after:)`.
    mutating func takeChain(_ bucket: Int) -> Int32 {
        let chain = heads[bucket]
        heads[bucket] = Self.none
        occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63))
        return chain
    }

    /// The positions of the nodes in `chunk`.
    @inline(__always)
    func nodes(of chunk: Int32) -> Range<Int32> {
        let header = chunk &* Int32(Self.chunkSize)
        return (header &+ 1)..<(header &+ 1 &+ Int32(pool[Int(header)].tie))
    }

    /// Frees `chunk` (of a taken chain) and returns the one after it.
    mutating func next(after chunk: Int32) -> Int32 {
        let next = pool[Int(chunk) &* Self.chunkSize].handle
        release(Int(chunk))
        return next
    }

    /// Rewrites every node's tie through `map`.
    mutating func mapTies(_ map: (UInt32) -> UInt32) {
        for bucket in heads.indices {
            var chunk = heads[bucket]
            while chunk != Self.none {
                for position in nodes(of: chunk) { pool[Int(position)].tie = map(pool[Int(position)].tie) }
                chunk = pool[Int(chunk) &* Self.chunkSize].handle
            }
        }
    }

    private mutating func newChunk(after next: Int32) -> Int {
        let chunk: Int
        if freeChunk != Self.none {
            chunk = Int(freeChunk)
            freeChunk = pool[chunk &* Self.chunkSize].handle
        } else {
            chunk = pool.count / Self.chunkSize
            // Grown by an eighth, not doubled: at a million handles doubling leaves megabytes idle.
            if pool.count + Self.chunkSize > pool.capacity { pool.reserveCapacity(pool.count + Swift.max(pool.count / 8, 64 * Self.chunkSize)) }
            pool.append(contentsOf: repeatElement(Node(date: 0, tie: 0, handle: Self.none), count: Self.chunkSize))
        }
        pool[chunk &* Self.chunkSize] = Node(date: 0, tie: 0, handle: next)
        return chunk
    }

    @inline(__always)
    private mutating func release(_ chunk: Int) {
        pool[chunk &* Self.chunkSize].handle = freeChunk
        freeChunk = Int32(chunk)
    }

    private mutating func grow(_ count: Int) {
        heads.append(contentsOf: repeatElement(Self.none, count: count - heads.count))
        occupied.append(contentsOf: repeatElement(0, count: count / 64 - occupied.count))
    }
}
