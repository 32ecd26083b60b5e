import Foundation
import GRDB
import WidgetCore

/// The start-up read of instances and their timelines, the bulk of a restart. Each table is
/// read in the order it lies on disk, with no sort or index walk in SQLite: instances by rowid,
/// timeline rows by rowid, entries by (instance, position). The three are matched by walking
/// instances and timeline rows sorted into id order alongside the entries (`IDOrderKey`), and
/// each timeline's entries go straight from SQLite's column memory into its one buffer.
extension SQLiteStateStore {
    /// Every instance in placement order (created, then id), and the timeline of each at the
    /// same index.
    static func loadInstances(_ db: Database, path: String) throws -> (instances: [WidgetInstance], timelines: [StoredTimeline?]) {
        let instances = try readInstances(db, path: path)
        var instanceOrder = instances.indices.map { IDOrderKey(instances[$0].id.utf8, row: $0) }
        instanceOrder.sortByID { instances[Int($0)].id }
        // Gathered into id order in a loop of their own: fetching each from its place in the
        // walk below would wait on a cache miss per timeline.
        let heads = try readTimelineHeads(db, path: path)
        var headOrder = heads.indices.map { IDOrderKey(heads[$0].id.utf8, row: $0) }
        headOrder.sortByID { heads[Int($0)].id }
        let sortedHeads = headOrder.map { heads[Int($0.row)] }

        // Timelines in id order with their instance's index, placed after the walk, likewise.
        var found: [(index: Int32, timeline: StoredTimeline)] = []
        found.reserveCapacity(heads.count)
        var nextInstance = 0
        /// Gives the timeline of `sortedHeads[position]` to its instance, if any.
        func attach(_ position: Int, _ timeline: Timeline) {
            let (key, head) = (headOrder[position], sortedHeads[position])
            while nextInstance < instanceOrder.count {
                let candidate = instanceOrder[nextInstance]
                let order = candidate.order(key) ?? IDOrderKey.order(instances[Int(candidate.row)].id.utf8, head.id.utf8)
                if order > 0 { return }
                nextInstance += 1
                if order == 0 {
                    found.append((candidate.row, StoredTimeline(timeline: timeline, receivedAt: head.receivedAt)))
                    return
                }
            }
        }
        var nextHead = 0
        /// Passes the heads before the id `bytes` (all that are left, for nil), which have no
        /// entries, and returns the position of the one for `bytes` itself, if any.
        func head(for bytes: [UInt8]?) -> Int? {
            let key = bytes.map { IDOrderKey($0, row: 0) }
            while nextHead < headOrder.count {
                let position = nextHead
                let order = key.map { headOrder[position].order($0) ?? IDOrderKey.order(sortedHeads[position].id.utf8, bytes!) } ?? -1
                if order > 0 { return nil }
                nextHead += 1
                if order == 0 { return position }
                attach(position, Timeline(entries: [], policy: sortedHeads[position].policy))
            }
            return nil
        }
        var builder = TimelineBuilder()
        // The id of the entries being read, kept in one buffer for every group.
        var group: [UInt8] = []
        var inGroup = false
        func finishGroup() {
            guard inGroup else { return }
            if let position = head(for: group) {
                attach(position, builder.make(policy: sortedHeads[position].policy))
            } else {
                // Entries of an instance without a timeline row are not a timeline.
                builder.discard()
            }
        }
        let entries = try ColumnReader(
            db, sql: "SELECT instance, date, content, score, duration, actions FROM entry ORDER BY instance, position")
        while try entries.next() {
            if !inGroup || !entries.text(0, equals: group) {
                finishGroup()
                group.removeAll(keepingCapacity: true)
                entries.withText(0) { group.append(contentsOf: $0) }
                inGroup = true
            }
            let score = entries.optionalDouble(3)
            let relevance = score.map { EntryRelevance(score: $0, duration: entries.optionalDouble(4) ?? 0) }
            let date = Date(timeIntervalSince1970: entries.double(1))
            entries.withText(2) { content in
                entries.withText(5) { builder.append(date: date, contentJSON: content, relevance: relevance, actionsJSON: $0) }
            }
        }
        finishGroup()
        _ = head(for: nil)
        var timelines = [StoredTimeline?](repeating: nil, count: instances.count)
        while let (index, timeline) = found.popLast() { timelines[Int(index)] = timeline }
        return (instances, timelines)
    }

    private static func readInstances(_ db: Database, path: String) throws -> [WidgetInstance] {
        var instances: [WidgetInstance] = []
        instances.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM instance") ?? 0)
        var kinds = KindNames()
        let rows = try ColumnReader(db, sql: "SELECT id, kind, family, configuration, created FROM instance")
        while try rows.next() {
            let id = rows.string(0)
            guard let family = rows.withText(2, WidgetFamily.init(utf8:)) else {
                throw StoreError("instance \(id) has unknown family '\(rows.string(2))' in \(path)")
            }
            let configuration: [String: JSONValue] = try rows.withText(3) { text in
                text.elementsEqual("{}".utf8)
                    ? [:] : try WidgetJSON.decoder.decode([String: JSONValue].self, from: Data(text))
            }
            instances.append(WidgetInstance(
                id: id, kind: rows.withText(1) { kinds.name($0) }, family: family, configuration: configuration,
                created: Date(timeIntervalSince1970: rows.double(4))))
        }
        // Rows lie in the order they were added, which is placement order unless an id was
        // reused; sorting is then needed, and cheap for rows nearly in order.
        let placedBefore = { (lhs: WidgetInstance, rhs: WidgetInstance) in
            // Ids as SQLite compares text: by bytes.
            lhs.created != rhs.created ? lhs.created < rhs.created : lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
        }
        if zip(instances, instances.dropFirst()).contains(where: { !placedBefore($0, $1) }) {
            instances.sort(by: placedBefore)
        }
        return instances
    }

    private struct TimelineHead {
        var id: InstanceID
        var policy: ReloadPolicy
        var receivedAt: Date
    }

    /// Every timeline row, in the order they lie.
    private static func readTimelineHeads(_ db: Database, path: String) throws -> [TimelineHead] {
        var heads: [TimelineHead] = []
        heads.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM timeline") ?? 0)
        let rows = try ColumnReader(db, sql: "SELECT instance, policy, policyDate, receivedAt FROM timeline")
        while try rows.next() {
            let id = rows.string(0)
            let policy: ReloadPolicy
            switch (rows.string(1), rows.optionalDouble(2)) {
            case ("atEnd", _): policy = .atEnd
            case ("never", _): policy = .never
            case ("after", let date?): policy = .after(Date(timeIntervalSince1970: date))
            case (let name, _): throw StoreError("timeline of \(id) has unknown policy '\(name)' in \(path)")
            }
            heads.append(TimelineHead(id: id, policy: policy, receivedAt: Date(timeIntervalSince1970: rows.double(3))))
        }
        return heads
    }
}

/// Kind names repeat across instances: one `String` per kind is kept, found by the row's bytes.
private struct KindNames {
    private var last: (bytes: [UInt8], name: String)?
    private var all: [String: String] = [:]

    mutating func name(_ bytes: UnsafeRawBufferPointer) -> String {
        if let last, bytes.hasBytes(last.bytes) { return last.name }
        let text = String(decoding: bytes, as: UTF8.self)
        let name = all[text] ?? text
        all[text] = name
        last = (Array(bytes), name)
        return name
    }
}

/// Each family's name as bytes, to match a row's text without making a `String`.
private let familyNames = WidgetFamily.allCases.map { (bytes: Array($0.rawValue.utf8), family: $0) }

extension WidgetFamily {
    /// The family named by these bytes.
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard let named = familyNames.first(where: { bytes.hasBytes($0.bytes) }) else { return nil }
        self = named.family
    }
}
