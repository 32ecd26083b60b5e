import Foundation

/// The records of every placed widget, with the two counts a status line needs kept as
/// records change (a million records are not walked to answer `status`).
///
/// Records sit side by side in one array, found through an id → position table: a dictionary
/// of whole records keeps up to twice as many buckets as records (its load factor), each the
/// size of a record, where the table's buckets hold only a position.
public struct InstanceBook: Sendable {
    /// Every record, in no particular order (a removal moves the last record into the gap).
    public private(set) var all: [InstanceRecord] = []
    private var positions: [InstanceID: Int] = [:]
    /// Instances in the last `visible` report.
    public private(set) var visible: Set<InstanceID> = []
    /// Records with a timeline.
    public private(set) var timelines = 0

    public init() {}

    public var count: Int { all.count }

    public subscript(id: InstanceID) -> InstanceRecord? {
        positions[id].map { all[$0] }
    }

    public func contains(_ id: InstanceID) -> Bool { positions[id] != nil }

    /// What `read` takes from a record, read where the record lies: `self[id]` copies the
    /// whole record out, retaining every field it holds, where `read` copies only the fields
    /// it reads through the pointer (valid only during the call).
    public func read<T>(_ id: InstanceID, _ read: (UnsafePointer<InstanceRecord>) -> T) -> T? {
        guard let position = positions[id] else { return nil }
        return all.withUnsafeBufferPointer { read($0.baseAddress! + position) }
    }

    public mutating func reserveCapacity(_ count: Int) {
        all.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// Inserts or replaces a record.
    public mutating func put(_ record: InstanceRecord) {
        if let position = positions[record.id] {
            let old = all[position]
            all[position] = record
            account(old, record)
        } else {
            positions[record.id] = all.count
            all.append(record)
            account(nil, record)
        }
    }

    @discardableResult
    public mutating func remove(_ id: InstanceID) -> InstanceRecord? {
        guard let position = positions.removeValue(forKey: id) else { return nil }
        let last = all.count - 1
        if position != last {
            all.swapAt(position, last)
            positions[all[position].id] = position
        }
        let old = all.removeLast()
        account(old, nil)
        return old
    }

    /// Changes one record in place; nothing happens for an unknown id.
    public mutating func update(_ id: InstanceID, _ change: (inout InstanceRecord) -> Void) {
        guard let position = positions[id] else { return }
        let hadTimeline = all[position].timeline != nil
        let wasVisible = all[position].visible
        change(&all[position])
        let record = all[position]
        precondition(record.id == id, "a record's id does not change")
        timelines += (record.timeline != nil ? 1 : 0) - (hadTimeline ? 1 : 0)
        if record.visible != wasVisible {
            if record.visible { visible.insert(id) } else { visible.remove(id) }
        }
    }

    /// Every record, placed first first (ties by id): the order `list` shows.
    public var inPlacementOrder: [InstanceRecord] {
        all.sorted { ($0.instance.created, $0.id) < ($1.instance.created, $1.id) }
    }

    private mutating func account(_ old: InstanceRecord?, _ new: InstanceRecord?) {
        timelines += (new?.timeline != nil ? 1 : 0) - (old?.timeline != nil ? 1 : 0)
        if let old, old.visible { visible.remove(old.id) }
        if let new, new.visible { visible.insert(new.id) }
    }
}
