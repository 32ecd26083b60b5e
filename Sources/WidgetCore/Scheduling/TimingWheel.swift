/// A priority queue of dated handles (small dense integers) whose common operations cost O(1)
/// amortised however many handles it holds: insert, move, remove any handle, read the earliest,
/// and take it out. A heap pays a sift of log n levels for each of them, and at a million
/// handles most levels are a cache miss.
///
/// A hierarchical timing wheel. Dates fall in ticks (whole seconds, or runs of them), and ticks
/// are written in a wide base (2^16 or 2^8, the wheel's `Shape`). The wheel has a cursor, the
/// tick of its earliest handle. A handle whose tick is at or before the cursor is in the near
/// heap, a `SlotHeap` that orders it exactly, by date then tie. Any other handle is in one
/// bucket, chosen by the highest digit in which its tick differs from the cursor's (the level)
/// and its own digit there. So a bucket at level 0 holds one tick, one at level 1 a run of
/// 2^16 (or 2^8) ticks, and so on; where a handle is follows from its tick and the cursor alone.
/// Every move of a handle costs a cache miss or two at a million handles, and wide levels keep
/// the moves few: with one-second ticks and 16-bit digits, a handle due within a day is placed
/// once and moved once or twice.
///
/// When the near heap runs empty, the cursor moves to the earliest tick of the lowest occupied
/// bucket (a bitmap finds it) and that bucket's handles are placed again: those at the new
/// cursor into the near heap, the others into lower levels. A handle therefore moves at most
/// once per level, three to six levels for any date. Placing a handle at or before the cursor is always
/// right, so dates may go back (a clock set back, a request for a past date): such a handle
/// joins the near heap. Should the near heap grow past an eighth of the wheel that way, the
/// whole wheel is placed again around its earliest handle, which costs O(n) once per n / 16
/// such insertions.
///
/// The buckets (`WheelBuckets`) keep each handle's date and tie beside it, so a move reads a
/// bucket front to back. What the wheel keeps per handle is only its position: in a table the
/// caller owns, so that several wheels can share one when a handle is in at most one of them
/// (the scheduler's per-provider wheels), and a slot's positions in every wheel sit together.
struct TimingWheel: Sendable {
    typealias Node = SlotHeap.Node

    /// How dates map to buckets: ticks of 2^`tickShift` seconds, and 2^`levelBits` buckets a level.
    struct Shape: Sendable {
        var tickShift: Int
        var levelBits: Int

        /// One-second ticks and 65,536 buckets a level (18 hours at level 0, 136 years at
        /// level 1): for one wheel of every instance, where the earliest is taken in order.
        static let fine = Shape(tickShift: 0, levelBits: 16)
        /// 64-second ticks and 256 buckets a level (4.5 hours, then 48 days): for many small
        /// wheels (one per provider) that are only searched up to a date, whose buckets must
        /// stay few and not too sparse.
        static let coarse = Shape(tickShift: 6, levelBits: 8)
    }

    /// Where each handle is: `absent`, an index in the near heap (stored as -2 - index), or a
    /// position in the buckets (0 or more). The heap reads and writes its indices through the
    /// `SlotPositions` subscript and sees a handle in a bucket as absent from the heap.
    struct Positions: SlotPositions, Sendable {
        var items: [Int32] = []

        subscript(slot handle: Int32) -> Int32 {
            @inline(__always) get {
                let stored = items[Int(handle)]
                return stored <= -2 ? -2 - stored : SlotHeap.absent
            }
            @inline(__always) set {
                items[Int(handle)] = newValue == SlotHeap.absent ? SlotHeap.absent : -2 - newValue
            }
        }

        /// Adds `count` handles, in no wheel.
        mutating func append(absent count: Int) {
            items.append(contentsOf: repeatElement(SlotHeap.absent, count: count))
        }

        func contains(_ handle: Int32) -> Bool { items[Int(handle)] != SlotHeap.absent }
    }

    let shape: Shape
    private(set) var count = 0
    /// The tick of the earliest handle (of the near heap's handles, the latest tick).
    private var cursor: UInt64 = 0
    private var near = SlotHeap()
    /// Bucket `level << levelBits | digit`; levels are added when a handle first needs one.
    private var buckets = WheelBuckets()
    /// The near heap's size beyond which an insertion before the cursor places everything again.
    private var rebuildLimit = Self.minimumRebuildLimit
    private let digitMask: Int

    init(shape: Shape = .fine) {
        self.shape = shape
        digitMask = 1 << shape.levelBits - 1
    }

    /// The earliest handle: its date, tie and handle.
    var min: Node? { near.min }
    var isEmpty: Bool { count == 0 }

    /// Puts `handle` at (date, tie), inserting it or moving it from where it was.
    mutating func set(_ handle: Int32, date: Double, tie: UInt32, positions: inout Positions) {
        let tick = tick(date)
        let position = positions.items[Int(handle)]
        if position <= -2 {
            if tick <= cursor {
                // Near heap to near heap: moved in place.
                near.set(handle, date: date, tie: tie, positions: &positions)
                return
            }
            near.remove(handle, positions: &positions)
        } else if position >= 0 {
            let old = bucket(self.tick(buckets.node(at: position).date), cursor)
            if tick > cursor && bucket(tick, cursor) == old {
                buckets.update(at: position, date: date, tie: tie)
                return
            }
            take(position, from: old, positions: &positions)
        } else {
            count += 1
        }
        if count == 1 { cursor = tick }
        place(Node(date: date, tie: tie, handle: handle), tick: tick, positions: &positions)
        if near.isEmpty {
            advance(positions: &positions)
        } else if tick < cursor && near.count > rebuildLimit {
            rebuild(positions: &positions)
        }
    }

    /// Takes `handle` out, if it is in this wheel.
    mutating func remove(_ handle: Int32, positions: inout Positions) {
        let position = positions.items[Int(handle)]
        if position <= -2 {
            near.remove(handle, positions: &positions)
        } else if position >= 0 {
            take(position, from: bucket(tick(buckets.node(at: position).date), cursor), positions: &positions)
            positions.items[Int(handle)] = SlotHeap.absent
        } else {
            return
        }
        count -= 1
        if near.isEmpty && count > 0 { advance(positions: &positions) }
    }

    /// Calls `body` with every handle dated at or before `date`, in no particular order. Reads
    /// those handles and, beyond them, at most the rest of the bucket that holds `date`.
    func forEach(through date: Double, _ body: (Int32) -> Void) {
        guard let first = near.min, first.date <= date else { return }
        near.forEach(through: date) { body($0.handle) }
        let last = tick(date)
        guard last > cursor else { return }
        // Buckets in index order (levels, then digits) are in tick order, and level 0's
        // occupied digits all follow the cursor's.
        var next = buckets.firstOccupied(from: Int(truncatingIfNeeded: cursor) & digitMask)
        while let bucket = next {
            let level = bucket >> shape.levelBits
            let above = UInt64(shape.levelBits * (level + 1))
            let start = (cursor >> above) << above | UInt64(bucket & digitMask) << UInt64(shape.levelBits * level)
            if start > last { return }
            buckets.forEach(in: bucket) { node in
                if node.date <= date { body(node.handle) }
            }
            next = buckets.firstOccupied(from: bucket + 1)
        }
    }

    /// Calls `body` with every node, in no particular order.
    func forEach(_ body: (Node) -> Void) {
        near.nodes.forEach(body)
        buckets.forEach(body)
    }

    /// Rewrites every tie through `map`, which must keep their order (the scheduler renumbers
    /// its sequence before it wraps).
    mutating func mapTies(_ map: (UInt32) -> UInt32) {
        near.mapTies(map)
        buckets.mapTies(map)
    }

    // MARK: Placement

    private static let minimumRebuildLimit = 64
    /// Seconds are counted from the reference date, offset so that earlier dates stay
    /// positive, and clamped to 48 bits (± 4 million years).
    private static let secondsOrigin: Int64 = 1 << 47

    @inline(__always)
    private func tick(_ date: Double) -> UInt64 { Self.seconds(date) >> UInt64(shape.tickShift) }

    /// The date rounded down to whole seconds, from the offset origin. Conversion and a
    /// correction rather than `rounded(.down)`, which is a call to `floor` on the baseline
    /// x86-64 this is built for.
    @inline(__always)
    static func seconds(_ date: Double) -> UInt64 {
        guard date > -Double(secondsOrigin) else { return 0 }
        guard date < Double(secondsOrigin) else { return UInt64(2 * secondsOrigin - 1) }
        var seconds = Int64(date)
        if Double(seconds) > date { seconds -= 1 }
        return UInt64(seconds + secondsOrigin)
    }

    /// The bucket of a tick after the cursor.
    @inline(__always)
    private func bucket(_ tick: UInt64, _ cursor: UInt64) -> Int {
        let bits = shape.levelBits
        let level = (63 - (tick ^ cursor).leadingZeroBitCount) / bits
        return level << bits | Int(truncatingIfNeeded: tick >> UInt64(bits * level)) & digitMask
    }

    /// Puts a node where its tick belongs: the near heap or a bucket. Whatever its position
    /// said before is overwritten.
    @inline(__always)
    private mutating func place(_ node: Node, tick: UInt64, positions: inout Positions) {
        guard tick > cursor else {
            positions.items[Int(node.handle)] = SlotHeap.absent
            near.set(node.handle, date: node.date, tie: node.tie, positions: &positions)
            return
        }
        let bucket = bucket(tick, cursor)
        buckets.ensure((bucket | digitMask) + 1)
        positions.items[Int(node.handle)] = buckets.insert(node, into: bucket)
    }

    /// Takes the node at `position` out of `bucket` (its handle's own position is left to the
    /// caller).
    @inline(__always)
    private mutating func take(_ position: Int32, from bucket: Int, positions: inout Positions) {
        if let moved = buckets.remove(at: position, from: bucket) { positions.items[Int(moved)] = position }
    }

    /// Moves the cursor to the earliest tick of the lowest occupied bucket and places that
    /// bucket's nodes again, which puts at least one in the (empty) near heap. Buckets of
    /// higher levels, and later ones of the same level, stay where they are: the new cursor
    /// has the old one's digits above the bucket's level.
    private mutating func advance(positions: inout Positions) {
        // Level 0's occupied digits all follow the cursor's.
        guard let bucket = buckets.firstOccupied(from: Int(truncatingIfNeeded: cursor) & digitMask) else { return }
        var earliest = UInt64.max
        buckets.forEach(in: bucket) { earliest = Swift.min(earliest, tick($0.date)) }
        cursor = earliest
        var chunk = buckets.takeChain(bucket)
        while chunk != WheelBuckets.none {
            for position in buckets.nodes(of: chunk) {
                let node = buckets.node(at: position)
                place(node, tick: tick(node.date), positions: &positions)
            }
            chunk = buckets.next(after: chunk)
        }
    }

    /// Places every node again around the earliest one, emptying the near heap of all but
    /// the nodes at its tick.
    private mutating func rebuild(positions: inout Positions) {
        var nodes = near.nodes
        buckets.forEach { nodes.append($0) }
        let earliest = near.min.map { tick($0.date) } ?? cursor
        near = SlotHeap()
        buckets = WheelBuckets()
        cursor = earliest
        for node in nodes { place(node, tick: tick(node.date), positions: &positions) }
        rebuildLimit = Swift.max(Self.minimumRebuildLimit, count / 8, 2 * near.count)
    }
}
