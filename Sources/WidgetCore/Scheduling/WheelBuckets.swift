/// The buckets of a `TimingWheel`: unordered sets of handles, each a chain of 64-byte chunks
/// drawn from one pool, with a bitmap of the buckets that hold any.
///
/// One flat pool rather than an array per bucket: a bucket's head is an entry in a flat table
/// and its chunks are whole cache lines, so adding a handle to a bucket reads one line (the
/// head chunk) where an array per bucket reads its header and then its tail, two misses when the
/// bucket is one of thousands (a wheel per provider). A handle's position is its index in the
/// pool, so removal reads the line that holds it and the head chunk, and moves the head chunk's
/// last handle into the hole: every chunk but the head stays full, and emptied chunks go back
/// to the pool for any bucket.
struct WheelBuckets: Sendable {
    /// Chunk `c` is `pool[16 c ..< 16 c + 16]`: the next chunk of its chain (or `none`), how
    /// many handles it holds, then up to 14 handles. A free chunk is chained to the next free one.
    private var pool: [Int32] = []
    private var freeChunk = Self.none
    /// The head chunk of each bucket, or `none`.
    private var heads: [Int32] = []
    /// Bit `bucket & 63` of word `bucket >> 6` is set when the bucket holds a handle.
    private var occupied: [UInt64] = []

    static let none: Int32 = -1
    private static let chunkSize = 16
    private static let perChunk: Int32 = 14

    /// Makes sure there are at least `count` buckets (a multiple of 64).
    @inline(__always)
    mutating func ensure(_ count: Int) {
        if heads.count < count { grow(count) }
    }

    /// Adds `handle` to `bucket` and records its position.
    @inline(__always)
    mutating func insert(_ handle: Int32, into bucket: Int, positions: inout some SlotPositions) {
        var chunk = Int(heads[bucket])
        if chunk == Int(Self.none) || pool[chunk &* Self.chunkSize &+ 1] == Self.perChunk {
            chunk = newChunk(after: Int32(chunk))
            heads[bucket] = Int32(chunk)
            occupied[bucket >> 6] |= 1 << UInt64(bucket & 63)
        }
        let base = chunk &* Self.chunkSize
        let count = pool[base &+ 1]
        let position = base &+ 2 &+ Int(count)
        pool[position] = handle
        pool[base &+ 1] = count &+ 1
        positions[slot: handle] = Int32(position)
    }

    /// Takes `handle`, at `position` (its index in the pool), out of `bucket`.
    @inline(__always)
    mutating func remove(_ handle: Int32, at position: Int, from bucket: Int, positions: inout some SlotPositions) {
        let chunk = Int(heads[bucket])
        let base = chunk &* Self.chunkSize
        let count = pool[base &+ 1] &- 1
        let lastPosition = base &+ 2 &+ Int(count)
        if lastPosition != position {
            let last = pool[lastPosition]
            pool[position] = last
            positions[slot: last] = Int32(position)
        }
        pool[base &+ 1] = count
        if count == 0 {
            let next = pool[base]
            heads[bucket] = next
            release(chunk)
            if next == Self.none { occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63)) }
        }
    }

    /// The first bucket at or after `bucket` that holds a handle.
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

    /// Calls `body` with every handle of `bucket`.
    @inline(__always)
    func forEach(in bucket: Int, _ body: (Int32) -> Void) {
        var chunk = Int(heads[bucket])
        while chunk != Int(Self.none) {
            let base = chunk &* Self.chunkSize
            for position in (base &+ 2)..<(base &+ 2 &+ Int(pool[base &+ 1])) { body(pool[position]) }
            chunk = Int(pool[base])
        }
    }

    /// Empties `bucket` and returns its chain, to be read with `handles(of:)` and given back
    /// chunk by chunk with `next(after:)`.
    mutating func takeChain(_ bucket: Int) -> Int32 {
        let chain = heads[bucket]
        heads[bucket] = Self.none
        occupied[bucket >> 6] &= ~(1 << UInt64(bucket & 63))
        return chain
    }

    /// The pool indices of the handles in `chunk`.
    @inline(__always)
    func handles(of chunk: Int32) -> Range<Int> {
        let base = Int(chunk) &* Self.chunkSize
        return (base &+ 2)..<(base &+ 2 &+ Int(pool[base &+ 1]))
    }

    @inline(__always)
    func handle(at position: Int) -> Int32 { pool[position] }

    /// Frees `chunk` (of a taken chain) and returns the one after it.
    mutating func next(after chunk: Int32) -> Int32 {
        let next = pool[Int(chunk) &* Self.chunkSize]
        release(Int(chunk))
        return next
    }

    /// Every handle, bucket by bucket.
    var all: [Int32] {
        var handles: [Int32] = []
        for bucket in heads.indices { forEach(in: bucket) { handles.append($0) } }
        return handles
    }

    private mutating func newChunk(after next: Int32) -> Int {
        let chunk: Int
        if freeChunk != Self.none {
            chunk = Int(freeChunk)
            freeChunk = pool[chunk &* Self.chunkSize]
        } else {
            chunk = pool.count / Self.chunkSize
            pool.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        }
        pool[chunk &* Self.chunkSize] = next
        pool[chunk &* Self.chunkSize &+ 1] = 0
        return chunk
    }

    @inline(__always)
    private mutating func release(_ chunk: Int) {
        pool[chunk &* Self.chunkSize] = freeChunk
        freeChunk = Int32(chunk)
    }

    private mutating func grow(_ count: Int) {
        heads.append(contentsOf: repeatElement(Self.none, count: count - heads.count))
        occupied.append(contentsOf: repeatElement(0, count: count / 64 - occupied.count))
    }
}
