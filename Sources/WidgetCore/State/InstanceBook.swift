import Foundation

/// The records of every placed widget, and what is derived from them and kept as they change:
/// the visible set, the count of timelines (a million records are not walked to answer
/// `status`), the donation match index, and which instances' relevance names which clues.
/// Every change goes through `put`, `remove` and
/// `update`, which keep them in step, so no caller maintains an index of its own. A record's
/// reload timing is changed by the scheduler through `changeTiming` (`ReloadTimingStore`):
/// nothing derived here depends on it.
///
/// Records sit side by side in one array, found through a table of positions that reads the
/// ids from the records themselves (`PositionTable`): a dictionary of whole records keeps up to
/// twice as many buckets as records (its load factor), each the size of a record. That table is
/// the daemon's one id table. Each record also has a `RecordHandle` that a removal does not
/// change, by which the scheduler reaches the record (and numbers its own slot) without an id.
public struct InstanceBook: Sendable {
    /// Every record, in no particular order (a removal moves the last record into the gap).
    public private(set) var all: [InstanceRecord] = []
    private var positions = PositionTable()
    /// The handle of the record at each position, and the position of each handle (-1: free).
    private var handleAt: [Int32] = []
    private var placeOfHandle: [Int32] = []
    /// Handles of removed records, given again before new ones are made.
    private var freeHandles: [Int32] = []
    /// Instances in the last `visible` report.
    public private(set) var visible: Set<InstanceID> = []
    /// Records with a timeline.
    public private(set) var timelines = 0
    /// Instances by what donations must match, for the kinds with an intent schema.
    private(set) var matchIndex = MatchIndex()
    /// The instances whose relevance samples that can be in force name each kind of clue.
    public private(set) var clueUsers = ClueUsers()
    /// The intent schema of each kind that has one (set when descriptors are read).
    private var schemas: [String: IntentSchema] = [:]

    public init() {}

    public var count: Int { all.count }

    public subscript(id: InstanceID) -> InstanceRecord? {
        position(of: id).map { all[$0] }
    }

    public func contains(_ id: InstanceID) -> Bool { position(of: id) != nil }

    /// What `read` takes from a record, read where the record lies: `self[id]` copies the
    /// whole record out, retaining every field it holds, where `read` copies only the fields
    /// it reads through the pointer (valid only during the call).
    public func read<T>(_ id: InstanceID, _ read: (UnsafePointer<InstanceRecord>) -> T) -> T? {
        guard let position = position(of: id) else { return nil }
        return all.withUnsafeBufferPointer { read($0.baseAddress! + position) }
    }

    /// Room for `count` records in all, so that loading them grows nothing.
    public mutating func reserveCapacity(_ count: Int) {
        all.reserveCapacity(count)
        handleAt.reserveCapacity(count)
        placeOfHandle.reserveCapacity(count)
        do {
            let records = all
            positions.reserveCapacity(count) { records[Int($0)].id }
        }
    }

    /// Inserts or replaces a record; answers its handle (a replaced record keeps its own).
    @discardableResult
    public mutating func put(_ record: InstanceRecord) -> RecordHandle {
        if let position = position(of: record.id) {
            let old = all[position]
            all[position] = record
            account(old, record)
            return RecordHandle(handleAt[position])
        } else {
            all.append(record)
            do {
                let records = all
                positions.insert(record.id, at: all.count - 1) { records[Int($0)].id }
            }
            let handle = freeHandles.popLast() ?? Int32(placeOfHandle.count)
            if handle == placeOfHandle.count { placeOfHandle.append(0) }
            placeOfHandle[Int(handle)] = Int32(all.count - 1)
            handleAt.append(handle)
            account(nil, record)
            return RecordHandle(handle)
        }
    }

    /// Puts every record in order, as `put` one by one does; into an empty book (a restart),
    /// the records are taken as they are and indexed in one pass, each record's handle its
    /// position.
    public mutating func put(contentsOf records: consuming [InstanceRecord]) {
        guard all.isEmpty else {
            for record in records { put(record) }
            return
        }
        all = records
        handleAt = Array(0..<Int32(all.count))
        placeOfHandle = handleAt
        freeHandles = []
        var unique = true
        do {
            let records = all
            positions.reserveCapacity(records.count) { records[Int($0)].id }
            for position in records.indices {
                unique = positions.insertIfAbsent(records[position].id, at: position) { records[Int($0)].id }
                if !unique { break }
            }
        }
        guard unique else {
            // Two records for one id: the later replaces the earlier, as with `put`.
            let records = all
            all = []
            positions = PositionTable()
            (handleAt, placeOfHandle) = ([], [])
            for record in records { put(record) }
            return
        }
        for record in all { account(nil, record) }
    }

    @discardableResult
    public mutating func remove(_ id: InstanceID) -> InstanceRecord? {
        guard let position = position(of: id) else { return nil }
        // A second reference to the records only while the table reads them: changing `all`
        // while it is held would copy the whole array.
        do {
            let records = all
            positions.remove(id, at: position) { records[Int($0)].id }
        }
        let last = all.count - 1
        let handle = handleAt[position]
        if position != last {
            all.swapAt(position, last)
            positions.move(all[position].id, from: last, to: position)
            handleAt[position] = handleAt[last]
            placeOfHandle[Int(handleAt[position])] = Int32(position)
        }
        handleAt.removeLast()
        placeOfHandle[Int(handle)] = -1
        freeHandles.append(handle)
        let old = all.removeLast()
        account(old, nil)
        return old
    }

    /// Changes one record in place; nothing happens for an unknown id.
    public mutating func update(_ id: InstanceID, _ change: (inout InstanceRecord) -> Void) {
        guard let position = position(of: id) else { return }
        update(at: position, id, change)
    }

    private mutating func update(at position: Int, _ id: InstanceID, _ change: (inout InstanceRecord) -> Void) {
        let hadTimeline = all[position].timeline != nil
        let wasVisible = all[position].visible
        // Only an instance of a kind with a schema is indexed; most updates are of others.
        let schema = schemas.isEmpty ? nil : schemas[all[position].kind]
        let configuration = schema == nil ? nil : all[position].instance.configuration
        let kind = all[position].kind
        // Most records have no relevance: their clues are not looked at.
        let hadRelevance = !all[position].relevance.isEmpty
        change(&all[position])
        let record = all[position]
        precondition(record.id == id && record.kind == kind, "a record's id and kind do not change")
        timelines += (record.timeline != nil ? 1 : 0) - (hadTimeline ? 1 : 0)
        if record.visible != wasVisible {
            if record.visible { visible.insert(id) } else { visible.remove(id) }
        }
        if let configuration, configuration != record.instance.configuration {
            var before = record.instance
            before.configuration = configuration
            matchIndex.remove(before, schema: schema)
            matchIndex.insert(record.instance, schema: schema)
        }
        if hadRelevance || !record.relevance.isEmpty { clueUsers.set(id, record.relevance.clueKinds) }
    }

    /// The kinds' intent schemas changed (descriptors read again): every record is indexed anew.
    mutating func setIntentSchemas(_ schemas: [String: IntentSchema]) {
        self.schemas = schemas
        matchIndex = MatchIndex()
        // With no schema, a million records are not walked.
        guard !schemas.isEmpty else { return }
        for index in all.indices {
            guard let schema = schemas[all[index].kind] else { continue }
            matchIndex.insert(all[index].instance, schema: schema)
        }
    }

    /// The instances whose configuration `donation` matches, by id.
    func matching(_ donation: Donation) -> Set<InstanceID> {
        matchIndex.matching(donation)
    }

    private func position(of id: InstanceID) -> Int? {
        positions.position(of: id) { all[Int($0)].id }
    }

    // MARK: Handles

    /// The handle of the record of `id`: the one id lookup, after which the record and its
    /// slot in the schedule are reached by index.
    public func handle(of id: InstanceID) -> RecordHandle? {
        position(of: id).map { RecordHandle(handleAt[$0]) }
    }

    /// The handle of the record at `position` in `all`.
    public func handle(atPosition position: Int) -> RecordHandle {
        RecordHandle(handleAt[position])
    }

    /// Whether `handle` is the handle of a record now in the book.
    public func contains(_ handle: RecordHandle) -> Bool {
        handle.index >= 0 && Int(handle.index) < placeOfHandle.count && placeOfHandle[Int(handle.index)] >= 0
    }

    /// The record of `handle`, which must be in the book.
    public subscript(handle: RecordHandle) -> InstanceRecord {
        all[place(of: handle)]
    }

    /// `read(_:_:)` of the record of `handle`, which must be in the book.
    public func read<T>(_ handle: RecordHandle, _ read: (UnsafePointer<InstanceRecord>) -> T) -> T {
        let position = place(of: handle)
        return all.withUnsafeBufferPointer { read($0.baseAddress! + position) }
    }

    /// Changes the record of `handle` in place, as `update(_:_:)` does.
    public mutating func update(_ handle: RecordHandle, _ change: (inout InstanceRecord) -> Void) {
        let position = place(of: handle)
        update(at: position, all[position].id, change)
    }

    @inline(__always)
    private func place(of handle: RecordHandle) -> Int {
        Int(placeOfHandle[Int(handle.index)])
    }

    /// Every record, placed first first (ties by id): the order `list` shows.
    public var inPlacementOrder: [InstanceRecord] {
        all.sorted { ($0.instance.created, $0.id) < ($1.instance.created, $1.id) }
    }

    private mutating func account(_ old: InstanceRecord?, _ new: InstanceRecord?) {
        timelines += (new?.timeline != nil ? 1 : 0) - (old?.timeline != nil ? 1 : 0)
        if let old, old.visible { visible.remove(old.id) }
        if let new, new.visible { visible.insert(new.id) }
        if let old, !old.relevance.isEmpty { clueUsers.remove(old.id) }
        if let new, !new.relevance.isEmpty { clueUsers.set(new.id, new.relevance.clueKinds) }
        guard !schemas.isEmpty else { return }
        if let old, let schema = schemas[old.kind] { matchIndex.remove(old.instance, schema: schema) }
        if let new, let schema = schemas[new.kind] { matchIndex.insert(new.instance, schema: schema) }
    }
}

extension InstanceBook: ReloadTimingStore {
    @inline(__always)
    public func instanceID(of handle: RecordHandle) -> InstanceID {
        all.withUnsafeBufferPointer { records in records[place(of: handle)].id }
    }

    @inline(__always)
    public func reloadFacts(of handle: RecordHandle) -> ReloadFacts {
        let place = place(of: handle)
        return all.withUnsafeBufferPointer { records in
            ReloadFacts(timing: records[place].timing, hiddenSince: records[place].hiddenSince)
        }
    }

    @discardableResult @inline(__always)
    public mutating func changeTiming(of handle: RecordHandle, _ change: (inout ReloadTiming, _ hiddenSince: Date?) -> Void) -> ReloadFacts {
        let place = place(of: handle)
        return all.withUnsafeMutableBufferPointer { records in
            let hiddenSince = records[place].hiddenSince
            change(&records[place].timing, hiddenSince)
            return ReloadFacts(timing: records[place].timing, hiddenSince: hiddenSince)
        }
    }
}
