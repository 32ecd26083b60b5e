import Foundation

/// The donations retained, indexed by intent type: a donation only ever matches instances of
/// kinds that declare its type, so matching reads one list, not all of them. Each list is in
/// the order the store keeps them (date, then the order recorded), so the oldest overall are
/// the first of some list.
public struct DonationLog: Sendable {
    private var byType: [String: [LocalDonation]] = [:]
    public private(set) var count = 0
    private var lastOrder: UInt64 = 0

    public init() {}

    /// The donations of one intent type, oldest first.
    public func entries(ofType type: String) -> [LocalDonation] {
        byType[type] ?? []
    }

    /// Every donation, oldest first.
    public var all: [LocalDonation] {
        byType.values.joined().sorted(by: Self.older)
    }

    /// Records a donation, numbering it after every other; returns it as recorded.
    @discardableResult
    public mutating func add(_ donation: Donation, calendar: Calendar) -> LocalDonation {
        add(LocalDonation(donation, calendar: calendar))
    }

    /// Records a donation whose local time is read already.
    @discardableResult
    public mutating func add(_ donation: LocalDonation) -> LocalDonation {
        lastOrder += 1
        var entry = donation
        entry.order = lastOrder
        let type = donation.donation.intentType
        var list = byType.removeValue(forKey: type) ?? []
        list.insert(entry, at: Self.insertionIndex(of: entry, in: list))
        byType[type] = list
        count += 1
        return entry
    }

    /// Drops the oldest beyond `limit`, as the store's retention does; returns them.
    @discardableResult
    public mutating func trim(to limit: Int) -> [LocalDonation] {
        var dropped: [LocalDonation] = []
        while count > max(0, limit) {
            guard let type = byType.min(by: { Self.older($0.value[0], $1.value[0]) })?.key else { break }
            dropped.append(byType[type]!.removeFirst())
            if byType[type]!.isEmpty { byType[type] = nil }
            count -= 1
        }
        return dropped
    }

    /// Deletes the donations `selected` picks; returns them, oldest first.
    @discardableResult
    public mutating func delete(where selected: (Donation) -> Bool) -> [LocalDonation] {
        var deleted: [LocalDonation] = []
        for type in byType.keys.sorted() {
            let list = byType[type]!
            let kept = list.filter { !selected($0.donation) }
            guard kept.count != list.count else { continue }
            deleted += list.filter { selected($0.donation) }
            byType[type] = kept.isEmpty ? nil : kept
            count -= list.count - kept.count
        }
        return deleted.sorted(by: Self.older)
    }

    /// Reads every donation's local time again (the time zone changed).
    public mutating func retime(_ calendar: Calendar) {
        for type in byType.keys {
            byType[type] = byType[type]!.map { LocalDonation($0.donation, calendar: calendar, order: $0.order) }
        }
    }

    /// Where `entry` goes in a list kept oldest first (at the end, for a new donation dated now).
    public static func insertionIndex(of entry: LocalDonation, in list: [LocalDonation]) -> Int {
        list.lastIndex { older($0, entry) }.map { $0 + 1 } ?? 0
    }

    static func older(_ lhs: LocalDonation, _ rhs: LocalDonation) -> Bool {
        (lhs.donation.date, lhs.order) < (rhs.donation.date, rhs.order)
    }
}
