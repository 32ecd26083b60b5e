/// A 4-ary min-heap of dated handles (small dense integers) that can move or remove any
/// handle in O(log n). Positions live in a table the caller owns, indexed by handle, so that
/// several structures can share one table when a handle is in at most one of them (the
/// timing wheel's near heap writes through a table that also says where in the wheel's buckets
/// a handle is).
///
/// Built for a million nodes that do not fit in the cache: a node is 16 bytes with no
/// references, so sifting moves no reference counts, and four children are one or two cache
/// lines, so a sift from the root touches half the levels a binary heap would.
struct SlotHeap: Sendable {
    struct Node: Sendable {
        /// Seconds since the reference date (a `Date`'s own representation).
        var date: Double
        /// Breaks ties at equal dates: lower first.
        var tie: UInt32
        var handle: Int32

        @inline(__always)
        func precedes(_ other: Node) -> Bool {
            date < other.date || (date == other.date && tie < other.tie)
        }
    }

    /// A position table's value for a handle that is in no heap.
    static let absent: Int32 = -1
    private static let arity = 4

    private(set) var nodes: [Node] = []

    var min: Node? { nodes.first }
    var count: Int { nodes.count }
    var isEmpty: Bool { nodes.isEmpty }

    /// Puts `handle` at (date, tie), inserting it or moving it from where it was.
    mutating func set<Positions: SlotPositions>(_ handle: Int32, date: Double, tie: UInt32, positions: inout Positions) {
        let node = Node(date: date, tie: tie, handle: handle)
        let position = Int(positions[slot: handle])
        if position == Int(Self.absent) {
            nodes.append(node)
            siftUp(nodes.count - 1, node, &positions)
        } else if node.precedes(nodes[position]) {
            siftUp(position, node, &positions)
        } else {
            siftDown(position, node, &positions)
        }
    }

    /// Takes `handle` out, if it is in this heap.
    mutating func remove<Positions: SlotPositions>(_ handle: Int32, positions: inout Positions) {
        let position = Int(positions[slot: handle])
        guard position != Int(Self.absent) else { return }
        positions[slot: handle] = Self.absent
        let last = nodes.removeLast()
        guard position < nodes.count else { return }
        if last.precedes(nodes[position]) {
            siftUp(position, last, &positions)
        } else {
            siftDown(position, last, &positions)
        }
    }

    /// Calls `body` with every node dated at or before `date`, in no particular order. The
    /// heap order prunes the walk: it reads only those nodes and their direct children.
    func forEach(through date: Double, _ body: (Node) -> Void) {
        guard let first = nodes.first, first.date <= date else { return }
        var stack = [0]
        while let index = stack.popLast() {
            body(nodes[index])
            let children = Self.arity * index + 1
            guard children < nodes.count else { continue }
            for child in children..<Swift.min(children + Self.arity, nodes.count) where nodes[child].date <= date {
                stack.append(child)
            }
        }
    }

    /// Rewrites every tie through `map`, which must keep their order (the scheduler renumbers
    /// its sequence before it wraps). The heap stays valid because no comparison changes.
    mutating func mapTies(_ map: (UInt32) -> UInt32) {
        for index in nodes.indices { nodes[index].tie = map(nodes[index].tie) }
    }

    /// Moves `node` (destined for `index`) towards the root until its parent precedes it.
    @inline(__always)
    private mutating func siftUp<Positions: SlotPositions>(_ index: Int, _ node: Node, _ positions: inout Positions) {
        var index = index
        while index > 0 {
            let parent = (index - 1) / Self.arity
            guard node.precedes(nodes[parent]) else { break }
            nodes[index] = nodes[parent]
            positions[slot: nodes[index].handle] = Int32(index)
            index = parent
        }
        nodes[index] = node
        positions[slot: node.handle] = Int32(index)
    }

    /// Moves `node` (destined for `index`) towards the leaves until it precedes its children.
    @inline(__always)
    private mutating func siftDown<Positions: SlotPositions>(_ index: Int, _ node: Node, _ positions: inout Positions) {
        var index = index
        let count = nodes.count
        while true {
            let first = Self.arity * index + 1
            guard first < count else { break }
            var best = first
            for child in (first + 1)..<Swift.min(first + Self.arity, count) where nodes[child].precedes(nodes[best]) {
                best = child
            }
            guard nodes[best].precedes(node) else { break }
            nodes[index] = nodes[best]
            positions[slot: nodes[index].handle] = Int32(index)
            index = best
        }
        nodes[index] = node
        positions[slot: node.handle] = Int32(index)
    }
}

/// Where a heap keeps each handle's position: a plain table, or a field of a larger record.
protocol SlotPositions {
    subscript(slot handle: Int32) -> Int32 { get set }
}

extension Array: SlotPositions where Element == Int32 {
    @inline(__always)
    subscript(slot handle: Int32) -> Int32 {
        get { self[Int(handle)] }
        set { self[Int(handle)] = newValue }
    }
}
