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
    /// same index. An instance a row of which does not decode (its own, its timeline's, one of
    /// its entries) is left out and recorded in `quarantine`, with its rows left as they are.
    static func loadInstances(
        _ db: Database, path: String, quarantine: inout Quarantine
    ) throws -> (instances: [WidgetInstance], timelines: [StoredTimeline?]) {
        let instances = try readInstances(db, path: path, quarantine: &quarantine)
        var instanceOrder = instances.indices.map { IDOrderKey(instances[$0].id.utf8, row: $0) }
        instanceOrder.sortByID { instances[Int($0)].id }
        // Gathered into id order in a loop of their own: fetching each from its place in the
        // walk below would wait on a cache miss per timeline.
        var badRows: [InstanceID: (table: String, reason: String)] = [:]
        let heads = try readTimelineHeads(db, path: path, bad: &badRows)
        var headOrder = heads.indices.map { IDOrderKey(heads[$0].id.utf8, row: $0) }
        headOrder.sortByID { heads[Int($0)].id }
        let sortedHeads = headOrder.map { heads[Int($0.row)] }

        // Timelines in id order with their instance's index, placed after the walk, likewise.
        var found: [(index: Int32, timeline: StoredTimeline)] = []
        found.reserveCapacity(heads.count)
        var nextInstance = 0
        /// Gives the timeline of `sortedHeads[position]` to its instance, if any.
        func attach(_ position: Int, _ timeline: WidgetTimeline) {
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
                attach(position, WidgetTimeline(entries: [], policy: sortedHeads[position].policy))
            }
            return nil
        }
        var builder = TimelineBuilder()
        // The id of the entries being read, kept in one buffer for every group.
        var group: [UInt8] = []
        var inGroup = false
        // Why an entry of the group does not decode (its later entries are not read).
        var groupFault: String?
        func finishGroup() {
            guard inGroup else { return }
            let position = head(for: group)
            if let groupFault {
                builder.discard()
                badRows[String(decoding: group, as: UTF8.self)] = ("entry", groupFault)
            } else if let position {
                attach(position, builder.make(policy: sortedHeads[position].policy))
            } else {
                // Entries of an instance without a timeline row are not a timeline.
                builder.discard()
            }
        }
        let entries = try ColumnReader(
            db, sql: "SELECT instance, date, content, score, duration, actions, position, clues FROM entry ORDER BY instance, position")
        while try entries.next() {
            if !inGroup || !entries.text(0, equals: group) {
                finishGroup()
                group.removeAll(keepingCapacity: true)
                entries.withText(0) { group.append(contentsOf: $0) }
                inGroup = true
                groupFault = nil
            }
            guard groupFault == nil else { continue }
            if let fault = entryFault(entries) {
                groupFault = "position \(entries.string(6)): \(fault)"
                continue
            }
            let score = entries.optionalDouble(3)
            var relevance = score.map { EntryRelevance(score: $0, duration: entries.optionalDouble(4) ?? 0) }
            if relevance != nil, !entries.isNull(7) {
                guard let when = try? entries.withText(7, { try Self.clues($0) }) else {
                    groupFault = "position \(entries.string(6)): clues are not a list of context clues"
                    continue
                }
                relevance?.when = when
            }
            let date = Date(timeIntervalSince1970: entries.double(1))
            entries.withText(2) { content in
                entries.withText(5) { builder.append(date: date, contentJSON: content, relevance: relevance, actionsJSON: $0) }
            }
        }
        finishGroup()
        _ = head(for: nil)
        var timelines = [StoredTimeline?](repeating: nil, count: instances.count)
        while let (index, timeline) = found.popLast() { timelines[Int(index)] = timeline }
        guard !badRows.isEmpty else { return (instances, timelines) }
        // An instance whose timeline does not decode is left out whole: loaded without it, its
        // provider's next timeline would replace the damaged rows before anyone saw them.
        var kept: [WidgetInstance] = []
        var keptTimelines: [StoredTimeline?] = []
        for (instance, timeline) in zip(instances, timelines) {
            guard let (table, reason) = badRows[instance.id] else {
                kept.append(instance)
                keptTimelines.append(timeline)
                continue
            }
            quarantine.instance(
                instance.id, kind: instance.kind, family: instance.family, created: instance.created, table: table,
                key: "instance = \(Quarantine.sqlText(instance.id))", reason: reason)
        }
        return (kept, keptTimelines)
    }

    /// Why the entry row does not decode, or nil when it does.
    private static func entryFault(_ entries: ColumnReader) -> String? {
        if entries.date(1) == nil { return "date is not a number within years 1 to 9999" }
        for (column, name) in [(Int32(3), "score"), (4, "duration")] where !entries.isNull(column) {
            guard entries.finite(column) != nil else { return "\(name) is not a finite number" }
        }
        guard entries.withText(2, StoredJSON.isValue) else { return "content is not JSON" }
        guard entries.isNull(5) || entries.withText(5, StoredJSON.isValue) else { return "actions are not JSON" }
        return nil
    }

    private static func readInstances(_ db: Database, path: String, quarantine: inout Quarantine) throws -> [WidgetInstance] {
        var instances: [WidgetInstance] = []
        instances.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM instance") ?? 0)
        var kinds = KindNames()
        let rows = try ColumnReader(db, sql: "SELECT id, kind, family, configuration, created FROM instance")
        while try rows.next() {
            let id = rows.string(0)
            let kind = rows.withText(1) { kinds.name($0) }
            let family = rows.withText(2, WidgetFamily.init(utf8:))
            let created = rows.date(4)
            let configuration: [String: JSONValue]? = rows.withText(3) { text in
                if text.elementsEqual("{}".utf8) { return [:] }
                guard StoredJSON.isObject(text) else { return nil }
                return try? WidgetJSON.decoder.decode([String: JSONValue].self, from: Data(text))
            }
            guard let family, let configuration, let created else {
                let reason =
                    family == nil ? "family \(Quarantine.shown(rows.string(2))) is not a widget family"
                    : configuration == nil ? "configuration is not a JSON object"
                    : "created is not a number within years 1 to 9999"
                quarantine.instance(
                    id, kind: kind, family: family, created: Date(timeIntervalSince1970: rows.finite(4) ?? 0), table: "instance",
                    key: "id = \(Quarantine.sqlText(id))", reason: reason)
                continue
            }
            instances.append(WidgetInstance(
                id: id, kind: kind, family: family, configuration: configuration, created: Date(timeIntervalSince1970: created)))
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

    /// Every timeline row that decodes, in the order they lie; the others' instances in `bad`.
    private static func readTimelineHeads(
        _ db: Database, path: String, bad: inout [InstanceID: (table: String, reason: String)]
    ) throws -> [TimelineHead] {
        var heads: [TimelineHead] = []
        heads.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM timeline") ?? 0)
        let rows = try ColumnReader(db, sql: "SELECT instance, policy, policyDate, receivedAt FROM timeline")
        while try rows.next() {
            let id = rows.string(0)
            guard let receivedAt = rows.date(3) else {
                bad[id] = ("timeline", "receivedAt is not a number within years 1 to 9999")
                continue
            }
            let policy: ReloadPolicy
            switch (rows.string(1), rows.isNull(2) ? nil : rows.date(2)) {
            case ("atEnd", _): policy = .atEnd
            case ("never", _): policy = .never
            case ("after", let date?): policy = .after(Date(timeIntervalSince1970: date))
            case ("after", nil):
                bad[id] = ("timeline", "policy 'after' without a policyDate within years 1 to 9999")
                continue
            case (let name, _):
                bad[id] = ("timeline", "policy \(Quarantine.shown(name)) is not a reload policy")
                continue
            }
            heads.append(TimelineHead(id: id, policy: policy, receivedAt: Date(timeIntervalSince1970: receivedAt)))
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
