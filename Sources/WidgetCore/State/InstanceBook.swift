import Foundation

/// The records of every placed widget, with the two counts a status line needs kept as
/// records change (a million records are not walked to answer `status`).
public struct InstanceBook: Sendable {
    public private(set) var records: [InstanceID: InstanceRecord] = [:]
    /// Instances in the last `visible` report.
    public private(set) var visible: Set<InstanceID> = []
    /// Records with a timeline.
    public private(set) var timelines = 0

    public init() {}

    public var count: Int { records.count }

    public subscript(id: InstanceID) -> InstanceRecord? { records[id] }

    public func contains(_ id: InstanceID) -> Bool { records[id] != nil }

    public mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
    }

    /// Inserts or replaces a record.
    public mutating func put(_ record: InstanceRecord) {
        let old = records.updateValue(record, forKey: record.id)
        account(old, record)
    }

    @discardableResult
    public mutating func remove(_ id: InstanceID) -> InstanceRecord? {
        guard let old = records.removeValue(forKey: id) else { return nil }
        account(old, nil)
        return old
    }

    /// Changes one record in place; nothing happens for an unknown id.
    public mutating func update(_ id: InstanceID, _ change: (inout InstanceRecord) -> Void) {
        guard let index = records.index(forKey: id) else { return }
        let hadTimeline = records.values[index].timeline != nil
        let wasVisible = records.values[index].visible
        change(&records.values[index])
        let record = records.values[index]
        timelines += (record.timeline != nil ? 1 : 0) - (hadTimeline ? 1 : 0)
        if record.visible != wasVisible {
            if record.visible { visible.insert(id) } else { visible.remove(id) }
        }
    }

    /// Every record, placed first first (ties by id): the order `list` shows.
    public var inPlacementOrder: [InstanceRecord] {
        records.values.sorted { ($0.instance.created, $0.id) < ($1.instance.created, $1.id) }
    }

    private mutating func account(_ old: InstanceRecord?, _ new: InstanceRecord?) {
        timelines += (new?.timeline != nil ? 1 : 0) - (old?.timeline != nil ? 1 : 0)
        if let old, old.visible { visible.remove(old.id) }
        if let new, new.visible { visible.insert(new.id) }
    }
}
