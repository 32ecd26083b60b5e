import Foundation

/// One timeline's entries and policy in a single allocation: a daemon holds a timeline per
/// instance, a million of them, and an array of entries with a `String` per content would cost
/// one allocation, one header and malloc's rounding per entry. Immutable once made (a changed
/// timeline is a new buffer), so it is shared between copies and threads without locking.
///
/// The bytes after the header, for `count` entries:
///
///     dates       count × 8   Double: seconds since the reference date (a `Date`'s own value)
///     ends        count × 4   UInt32: where each entry's content ends, from the start of the content
///     relevance   count × 16  (score, duration)   } only when some entry has relevance
///     flags       count × 1   1: the entry has it }
///     action ends count × 4   UInt32: where each entry's actions end  } only when some
///     content     every entry's content JSON, one after the other      } entry has actions
///     actions     every entry's actions as JSON (empty for none)      }
///
/// An entry's context clues (`relevance.when`) are few and structured, and most timelines
/// have none: they are held beside the bytes, in the header, one optional list per entry.
///
/// Fields are read and written unaligned: the header's size fixes where the bytes start.
///
/// Sendable although `ManagedBuffer` is not: the buffer is written only by `make`, before the
/// storage exists, and only read after.
struct TimelineStorage: @unchecked Sendable {
    private let buffer: ManagedBuffer<Header, UInt8>

    struct Header {
        /// The date of an `after` policy.
        var policyDate: Double
        var count: UInt32
        var contentBytes: UInt32
        /// Bytes of action text after the content; only read when `hasActions`.
        var actionBytes: UInt32
        var policyKind: PolicyKind
        var hasRelevance: Bool
        var hasActions: Bool
        /// Each entry's `relevance.when`, when some entry has one.
        var clues: [[ClueAlternative]?]?
    }

    enum PolicyKind: UInt8 {
        case atEnd, never, after
    }

    /// Every input caps a timeline far below this (a request line at 1 MiB, a provider
    /// answer at `max-answer-bytes`), and the offsets are 32 bits.
    static let maxContentBytes = Int(UInt32.max)

    /// A buffer for `count` entries holding `contentBytes` bytes of content and, when
    /// `actionBytes` is given, that many of actions; `fill` writes every field (see `Writer`).
    static func make(
        count: Int, contentBytes: Int, hasRelevance: Bool, actionBytes: Int? = nil, policy: ReloadPolicy,
        clues: [[ClueAlternative]?]? = nil, fill: (Writer) -> Void
    ) -> TimelineStorage {
        precondition(contentBytes + (actionBytes ?? 0) <= maxContentBytes, "a timeline's content is limited to 4 GiB")
        let layout = Layout(count: count, hasRelevance: hasRelevance, hasActions: actionBytes != nil, contentBytes: contentBytes)
        let (kind, date) = encode(policy)
        let buffer = ManagedBuffer<Header, UInt8>.create(minimumCapacity: layout.actions + (actionBytes ?? 0)) { _ in
            Header(
                policyDate: date, count: UInt32(count), contentBytes: UInt32(contentBytes), actionBytes: UInt32(actionBytes ?? 0),
                policyKind: kind, hasRelevance: hasRelevance, hasActions: actionBytes != nil,
                clues: clues.flatMap { $0.contains { $0 != nil } ? $0 : nil })
        }
        buffer.withUnsafeMutablePointerToElements { elements in
            fill(Writer(base: UnsafeMutableRawPointer(elements), layout: layout))
        }
        return TimelineStorage(buffer: buffer)
    }

    private var header: Header { buffer.header }

    /// Where each section starts, from the first byte after the header.
    struct Layout {
        let count: Int
        let ends: Int
        let relevance: Int
        let flags: Int
        let actionEnds: Int
        let content: Int
        let actions: Int

        init(count: Int, hasRelevance: Bool, hasActions: Bool, contentBytes: Int) {
            self.count = count
            ends = 8 * count
            relevance = ends + 4 * count
            flags = relevance + (hasRelevance ? 16 * count : 0)
            actionEnds = flags + (hasRelevance ? count : 0)
            content = actionEnds + (hasActions ? 4 * count : 0)
            actions = content + contentBytes
        }
    }

    /// Writes the fields of a buffer being made; entry `index`'s content goes at
    /// `contentStart`, the end of the previous entry's.
    struct Writer {
        let base: UnsafeMutableRawPointer
        let layout: Layout

        func set(_ index: Int, date: Double, end: Int) {
            base.storeBytes(of: date, toByteOffset: 8 * index, as: Double.self)
            base.storeBytes(of: UInt32(end), toByteOffset: layout.ends + 4 * index, as: UInt32.self)
        }

        /// Only for a buffer made with `hasRelevance`.
        func set(_ index: Int, relevance: EntryRelevance?) {
            base.storeBytes(of: relevance?.score ?? 0, toByteOffset: layout.relevance + 16 * index, as: Double.self)
            base.storeBytes(of: relevance?.duration ?? 0, toByteOffset: layout.relevance + 16 * index + 8, as: Double.self)
            base.storeBytes(of: relevance == nil ? 0 : 1, toByteOffset: layout.flags + index, as: UInt8.self)
        }

        func copyContent(from bytes: UnsafeRawBufferPointer, at contentStart: Int) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + layout.content + contentStart).copyMemory(from: source, byteCount: bytes.count)
        }

        /// Only for a buffer made with `actionBytes`: where entry `index`'s actions end.
        func set(_ index: Int, actionsEnd end: Int) {
            base.storeBytes(of: UInt32(end), toByteOffset: layout.actionEnds + 4 * index, as: UInt32.self)
        }

        func copyActions(from bytes: UnsafeRawBufferPointer, at start: Int) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + layout.actions + start).copyMemory(from: source, byteCount: bytes.count)
        }
    }

    // MARK: Reading

    var count: Int { Int(header.count) }

    var policy: ReloadPolicy {
        switch header.policyKind {
        case .atEnd: .atEnd
        case .never: .never
        case .after: .after(Date(timeIntervalSinceReferenceDate: header.policyDate))
        }
    }

    func date(at index: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: read { base, _ in base.loadUnaligned(fromByteOffset: 8 * index, as: Double.self) })
    }

    func relevance(at index: Int) -> EntryRelevance? {
        guard header.hasRelevance else { return nil }
        return read { base, layout in
            guard base.load(fromByteOffset: layout.flags + index, as: UInt8.self) != 0 else { return nil }
            return EntryRelevance(
                score: base.loadUnaligned(fromByteOffset: layout.relevance + 16 * index, as: Double.self),
                duration: base.loadUnaligned(fromByteOffset: layout.relevance + 16 * index + 8, as: Double.self),
                when: header.clues?[index])
        }
    }

    /// Whether any entry has context clues.
    var hasClues: Bool { header.clues != nil }

    /// Whether any entry has actions.
    var hasActions: Bool { header.hasActions }

    /// The bytes of entry `index`'s actions JSON; empty when it has none.
    func withActions<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        guard header.hasActions else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try read { base, layout in
            let start = index == 0 ? 0 : Int(base.loadUnaligned(fromByteOffset: layout.actionEnds + 4 * (index - 1), as: UInt32.self))
            let end = Int(base.loadUnaligned(fromByteOffset: layout.actionEnds + 4 * index, as: UInt32.self))
            return try body(UnsafeRawBufferPointer(start: base + layout.actions + start, count: end - start))
        }
    }

    func actions(at index: Int) -> [WidgetAction] {
        withActions(at: index) { [WidgetAction](storedText: $0) }
    }

    /// The bytes of entry `index`'s content JSON.
    func withContent<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try read { base, layout in
            let start = index == 0 ? 0 : Int(base.loadUnaligned(fromByteOffset: layout.ends + 4 * (index - 1), as: UInt32.self))
            let end = Int(base.loadUnaligned(fromByteOffset: layout.ends + 4 * index, as: UInt32.self))
            return try body(UnsafeRawBufferPointer(start: base + layout.content + start, count: end - start))
        }
    }

    func contentJSON(at index: Int) -> String {
        withContent(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// All content bytes, every entry's in order.
    func withAllContent<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try read { base, layout in
            try body(UnsafeRawBufferPointer(start: base + layout.content, count: Int(header.contentBytes)))
        }
    }

    private var layout: Layout {
        let header = header
        return Layout(count: Int(header.count), hasRelevance: header.hasRelevance, hasActions: header.hasActions, contentBytes: Int(header.contentBytes))
    }

    private func read<Result>(_ body: (UnsafeRawPointer, Layout) throws -> Result) rethrows -> Result {
        let layout = layout
        return try buffer.withUnsafeMutablePointerToElements { try body(UnsafeRawPointer($0), layout) }
    }

    /// The same entries under another policy.
    func replacingPolicy(_ policy: ReloadPolicy) -> TimelineStorage {
        let total = layout.actions + Int(header.actionBytes)
        return TimelineStorage.make(
            count: count, contentBytes: Int(header.contentBytes), hasRelevance: header.hasRelevance,
            actionBytes: header.hasActions ? Int(header.actionBytes) : nil, policy: policy, clues: header.clues
        ) { writer in
            read { base, _ in writer.base.copyMemory(from: base, byteCount: total) }
        }
    }

    private static func encode(_ policy: ReloadPolicy) -> (PolicyKind, Double) {
        switch policy {
        case .atEnd: (.atEnd, 0)
        case .never: (.never, 0)
        case .after(let date): (.after, date.timeIntervalSinceReferenceDate)
        }
    }

    // MARK: Equality

    /// Same policy and entries: dates and relevance compared as values, content as bytes.
    func hasSameEntries(as other: TimelineStorage) -> Bool {
        if buffer === other.buffer { return true }
        guard count == other.count, policy == other.policy, header.contentBytes == other.header.contentBytes,
            header.hasActions == other.header.hasActions, header.actionBytes == other.header.actionBytes
        else {
            return false
        }
        for index in 0..<count where date(at: index) != other.date(at: index) || relevance(at: index) != other.relevance(at: index) {
            return false
        }
        return read { base, layout in
            other.read { otherBase, otherLayout in
                memcmp(base + layout.ends, otherBase + otherLayout.ends, 4 * count) == 0
                    && memcmp(base + layout.content, otherBase + otherLayout.content, Int(header.contentBytes)) == 0
                    && memcmp(base + layout.actionEnds, otherBase + otherLayout.actionEnds, layout.content - layout.actionEnds) == 0
                    && memcmp(base + layout.actions, otherBase + otherLayout.actions, Int(header.actionBytes)) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(policy)
        for index in 0..<count {
            hasher.combine(date(at: index))
            hasher.combine(relevance(at: index))
        }
        read { base, layout in
            hasher.combine(bytes: UnsafeRawBufferPointer(start: base + layout.ends, count: 4 * count))
            hasher.combine(bytes: UnsafeRawBufferPointer(start: base + layout.content, count: Int(header.contentBytes)))
            hasher.combine(bytes: UnsafeRawBufferPointer(start: base + layout.actions, count: Int(header.actionBytes)))
        }
    }
}
