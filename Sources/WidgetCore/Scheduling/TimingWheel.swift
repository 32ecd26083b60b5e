/// A priority queue of dated handles (small dense integers) whose common operations cost O(1)
/// amortised however many handles it holds: insert, move, remove any handle, read the earliest,
/// and take it out. A heap pays a sift of log n levels for each of them, and at a million
/// handles nearly every level is a cache miss.
///
/// A hierarchical timing wheel over whole-second ticks, in base 4096. The wheel has a cursor, the
/// tick of its earliest handle. A handle whose tick is at or before the cursor is in the near
/// heap, a `SlotHeap` that orders it exactly, by date then tie. Any other handle is in one
/// bucket, chosen by the highest base-4096 digit in which its tick differs from the cursor's (the
/// level) and its own digit there. So a bucket at level 0 holds one tick, one at level 1 a run of
/// 4096 ticks (68 minutes), one at level 2 a run of 194 days; where a handle is follows from its
/// tick and the cursor alone, and each handle's record keeps only its date, its tie and its
/// index there. Every move of a handle is a cache miss at a million handles, and wide levels
/// keep the moves few: a handle due within a day is placed once and moved once or twice.
///
/// When the near heap runs empty, the cursor moves to the earliest tick of the lowest occupied
/// bucket (a bitmap per level finds it) and that bucket's handles are placed again: those at
/// the new cursor into the near heap, the others into lower levels. A handle therefore moves at
/// most once per level, four levels for any date. Placing a handle at or before the cursor is
/// always right, so dates may go back (a clock set back, a request for a past date): such a
/// handle joins the near heap. Should the near heap grow past an eighth of the wheel that way,
/// the whole wheel is placed again around its earliest handle, which costs O(n) once per n / 16
/// such insertions.
///
/// Buckets (`WheelBuckets`) hold handles in whole cache lines: moving a bucket reads it line by
/// line, and its handles' records are independent reads the processor can overlap, where a
/// list linked through the records would make it wait for each record before the next. Removal
/// moves another handle into the hole; the exact order only matters in the near heap.
///
/// The records live in a table the caller owns, indexed by handle, so that several wheels can
/// share one table when a handle is in at most one of them (the scheduler's per-provider
/// wheels).
struct TimingWheel: Sendable {
    /// What a wheel keeps of one handle: 16 bytes, four to a cache line.
    struct Record: Sendable {
        var date: Double
        var tie: UInt32
        /// Index in the near heap or in the handle's bucket; `SlotHeap.absent` in no wheel.
        var position: Int32

        static let absent = Record(date: 0, tie: 0, position: SlotHeap.absent)
    }

    /// Records by handle.
    struct Records: SlotPositions, Sendable {
        var items: [Record] = []

        subscript(slot handle: Int32) -> Int32 {
            @inline(__always) get { items[Int(handle)].position }
            @inline(__always) set { items[Int(handle)].position = newValue }
        }

        /// Adds `count` records, in no wheel.
        mutating func append(absent count: Int) {
            items.append(contentsOf: repeatElement(Record.absent, count: count))
        }

        func contains(_ handle: Int32) -> Bool { items[Int(handle)].position != SlotHeap.absent }
    }

    private(set) var count = 0
    /// The tick of the earliest handle (of the near heap's handles, the latest tick).
    private var cursor: UInt64 = 0
    private var near = SlotHeap()
    /// Bucket `level << 12 | digit`; levels are added when a handle first needs one.
    private var buckets = WheelBuckets()
    /// The near heap's size beyond which an insertion before the cursor places everything again.
    private var rebuildLimit = Self.minimumRebuildLimit

    /// The earliest handle: its date, tie and handle.
    var min: SlotHeap.Node? { near.min }
    var isEmpty: Bool { count == 0 }

    /// Puts `handle` at (date, tie), inserting it or moving it from where it was.
    mutating func set(_ handle: Int32, date: Double, tie: UInt32, records: inout Records) {
        let tick = Self.tick(date)
        let old = records.items[Int(handle)]
        if old.position != SlotHeap.absent {
            let oldTick = Self.tick(old.date)
            if tick <= cursor && oldTick <= cursor {
                // Near heap to near heap: moved in place.
                records.items[Int(handle)].date = date
                records.items[Int(handle)].tie = tie
                near.set(handle, date: date, tie: tie, positions: &records)
                return
            }
            if tick > cursor && oldTick > cursor && Self.bucket(tick, cursor) == Self.bucket(oldTick, cursor) {
                records.items[Int(handle)].date = date
                records.items[Int(handle)].tie = tie
                return
            }
            detach(handle, tick: oldTick, records: &records)
        } else {
            count += 1
        }
        records.items[Int(handle)].date = date
        records.items[Int(handle)].tie = tie
        if count == 1 { cursor = tick }
        attach(handle, tick: tick, records: &records)
        if near.isEmpty {
            advance(records: &records)
        } else if tick < cursor && near.count > rebuildLimit {
            rebuild(records: &records)
        }
    }

    /// Takes `handle` out, if it is in this wheel.
    mutating func remove(_ handle: Int32, records: inout Records) {
        let record = records.items[Int(handle)]
        guard record.position != SlotHeap.absent else { return }
        detach(handle, tick: Self.tick(record.date), records: &records)
        count -= 1
        if near.isEmpty && count > 0 { advance(records: &records) }
    }

    /// Calls `body` with every handle dated at or before `date`, in no particular order. Reads
    /// those handles and, beyond them, at most the rest of the bucket that holds `date`.
    func forEach(through date: Double, records: Records, _ body: (Int32) -> Void) {
        guard let first = near.min, first.date <= date else { return }
        near.forEach(through: date) { body($0.handle) }
        let last = Self.tick(date)
        guard last > cursor else { return }
        // Buckets in index order (levels, then digits) are in tick order.
        var next = buckets.firstOccupied(from: Int(truncatingIfNeeded: cursor) & Self.digitMask)
        while let bucket = next {
            let level = bucket >> Self.levelBits
            let above = UInt64(Self.levelBits * (level + 1))
            let start = (cursor >> above) << above | UInt64(bucket & Self.digitMask) << UInt64(Self.levelBits * level)
            if start > last { return }
            buckets.forEach(in: bucket) { handle in
                if records.items[Int(handle)].date <= date { body(handle) }
            }
            next = buckets.firstOccupied(from: bucket + 1)
        }
    }

    /// Rewrites every tie through `map`, which must keep their order (the scheduler renumbers
    /// its sequence before it wraps).
    mutating func mapTies(records: inout Records, _ map: (UInt32) -> UInt32) {
        near.mapTies(map)
        for node in near.nodes { records.items[Int(node.handle)].tie = node.tie }
        for handle in buckets.all { records.items[Int(handle)].tie = map(records.items[Int(handle)].tie) }
    }

    // MARK: Placement

    private static let minimumRebuildLimit = 64
    private static let levelBits = 12
    private static let digitMask = 1 << levelBits - 1
    /// Ticks are whole seconds from the reference date, offset so that earlier dates stay
    /// positive, and clamped to 48 bits (± 4 million years): four levels of twelve bits.
    private static let tickOrigin: Int64 = 1 << 47

    /// The date rounded down to whole seconds. Conversion and a correction rather than
    /// `rounded(.down)`, which is a call to `floor` on the baseline x86-64 this is built for.
    @inline(__always)
    static func tick(_ date: Double) -> UInt64 {
        guard date > -Double(tickOrigin) else { return 0 }
        guard date < Double(tickOrigin) else { return UInt64(2 * tickOrigin - 1) }
        var seconds = Int64(date)
        if Double(seconds) > date { seconds -= 1 }
        return UInt64(seconds + tickOrigin)
    }

    /// The bucket of a tick after the cursor.
    @inline(__always)
    private static func bucket(_ tick: UInt64, _ cursor: UInt64) -> Int {
        let level = (63 - (tick ^ cursor).leadingZeroBitCount) / levelBits
        return level << levelBits | Int(truncatingIfNeeded: tick >> UInt64(levelBits * level)) & digitMask
    }

    /// Places a handle that is in no bucket and not in the near heap (its position may be stale).
    @inline(__always)
    private mutating func attach(_ handle: Int32, tick: UInt64, records: inout Records) {
        guard tick > cursor else {
            let record = records.items[Int(handle)]
            records.items[Int(handle)].position = SlotHeap.absent
            near.set(handle, date: record.date, tie: record.tie, positions: &records)
            return
        }
        let bucket = Self.bucket(tick, cursor)
        buckets.ensure((bucket | Self.digitMask) + 1)
        buckets.insert(handle, into: bucket, positions: &records)
    }

    @inline(__always)
    private mutating func detach(_ handle: Int32, tick: UInt64, records: inout Records) {
        guard tick > cursor else {
            near.remove(handle, positions: &records)
            return
        }
        let position = Int(records.items[Int(handle)].position)
        records.items[Int(handle)].position = SlotHeap.absent
        buckets.remove(handle, at: position, from: Self.bucket(tick, cursor), positions: &records)
    }

    /// Moves the cursor to the earliest tick of the lowest occupied bucket and places that
    /// bucket's handles again, which puts at least one in the (empty) near heap. Buckets of
    /// higher levels, and later ones of the same level, stay where they are: the new cursor
    /// has the old one's digits above the bucket's level.
    private mutating func advance(records: inout Records) {
        // Level 0's occupied digits all follow the cursor's.
        guard let bucket = buckets.firstOccupied(from: Int(truncatingIfNeeded: cursor) & Self.digitMask) else { return }
        var earliest = UInt64.max
        buckets.forEach(in: bucket) { earliest = Swift.min(earliest, Self.tick(records.items[Int($0)].date)) }
        cursor = earliest
        var chunk = buckets.takeChain(bucket)
        while chunk != WheelBuckets.none {
            for position in buckets.handles(of: chunk) {
                let handle = buckets.handle(at: position)
                attach(handle, tick: Self.tick(records.items[Int(handle)].date), records: &records)
            }
            chunk = buckets.next(after: chunk)
        }
    }

    /// Places every handle again around the earliest one, emptying the near heap of all but
    /// the handles at its tick.
    private mutating func rebuild(records: inout Records) {
        let handles = near.nodes.map(\.handle) + buckets.all
        let earliest = near.min.map { Self.tick($0.date) } ?? cursor
        near = SlotHeap()
        buckets = WheelBuckets()
        cursor = earliest
        for handle in handles { attach(handle, tick: Self.tick(records.items[Int(handle)].date), records: &records) }
        rebuildLimit = Swift.max(Self.minimumRebuildLimit, count / 8, 2 * near.count)
    }
}
