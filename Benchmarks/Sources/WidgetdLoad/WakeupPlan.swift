import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import WidgetCore

/// The timelines `widgetd-load wakeups` pushes, and the deadlines they give the daemon.
///
/// Every future entry date lies on a grid of instants `spacing` seconds apart over the 24 h
/// after `origin`, chosen at random per instance, so 10,000 instances spread their entry
/// changes over the whole day while the daemon's distinct deadlines stay a known, small set:
/// one per grid instant that some entry uses. The spacing is wider than the coalescing window,
/// so no two of them can be served by one wake-up and the lower bound of a window is exact:
/// the grid instants inside it that carry an entry change.
struct WakeupPlan: Sendable {
    /// One instance's timeline: one entry an hour before the origin (so the first future
    /// entry is a change, not the entry shown from the start) and `entries` future ones.
    struct Instance: Sendable {
        /// Grid slots (1-based: slot k is origin + k × spacing), ascending, distinct.
        var slots: [Int]
    }

    /// Unix seconds of grid slot 0, a multiple of `spacing`.
    let origin: Int
    let spacing: Int
    let slotCount: Int
    let instances: [Instance]

    init(instances count: Int, entries: Int, spacing: Int, origin: Int, seed: UInt64 = 0x3A4E_0013) {
        self.origin = origin
        self.spacing = spacing
        slotCount = 86_400 / spacing
        var random = SplitMix64(seed: seed)
        let entries = min(entries, slotCount)
        var instances: [Instance] = []
        instances.reserveCapacity(count)
        for _ in 0..<count {
            var chosen = Set<Int>()
            while chosen.count < entries { chosen.insert(1 + Int(random.below(UInt64(slotCount)))) }
            instances.append(Instance(slots: chosen.sorted()))
        }
        self.instances = instances
    }

    /// The grid origin for a plan made now: the last multiple of `spacing` at or before now
    /// (unix seconds). A window then starts inside the grid (at its first half-way instant
    /// after the set-up), so it holds as many deadline instants as its length allows. Entries
    /// on the first slots may pass while the set-up runs; they are before any window.
    static func origin(now: Date, spacing: Int) -> Int {
        let seconds = Int(now.timeIntervalSince1970.rounded(.down))
        return seconds / spacing * spacing
    }

    func date(ofSlot slot: Int) -> Date {
        Date(timeIntervalSince1970: Double(origin + slot * spacing))
    }

    /// Every slot some instance has an entry at, with how many entries it carries.
    var entriesBySlot: [Int: Int] {
        var counts: [Int: Int] = [:]
        for instance in instances {
            for slot in instance.slots { counts[slot, default: 0] += 1 }
        }
        return counts
    }

    /// The deadline instants strictly inside `(start, end)` and the entry changes due at them.
    func deadlines(from start: Date, to end: Date) -> (instants: [Date], entryChanges: Int) {
        let inside = entriesBySlot.filter { slot, _ in
            let date = self.date(ofSlot: slot)
            return date > start && date < end
        }
        return (inside.keys.sorted().map(date(ofSlot:)), inside.values.reduce(0, +))
    }

    /// The first deadline after `date`, if any.
    func nextDeadline(after date: Date) -> Date? {
        entriesBySlot.keys.sorted().lazy.map(self.date(ofSlot:)).first { $0 > date }
    }

    /// The first instant at or after `date` that lies half-way between two grid instants: a
    /// window starting there is as far as it can be from a deadline, so a timer that fires a
    /// little late still lands on the side of the window boundary its deadline is on.
    func midpoint(atOrAfter date: Date) -> Date {
        let offset = date.timeIntervalSince1970 - Double(origin) - Double(spacing) / 2
        let steps = (offset / Double(spacing)).rounded(.up)
        return Date(timeIntervalSince1970: Double(origin) + Double(spacing) / 2 + steps * Double(spacing))
    }

    /// The timeline pushed to instance `index`: JSON for the `push` method's `timeline`.
    /// Policy `after` its last entry date: for a kind without a provider an `after` date is no
    /// deadline at all (nothing could reload it), and were it one it would fall on an instant
    /// that is a deadline already, so the bound is the same either way.
    func timeline(_ index: Int) -> [String: Any] {
        let slots = instances[index].slots
        var entries: [[String: Any]] = [
            ["date": Self.iso(Date(timeIntervalSince1970: Double(origin - 3600))), "content": ["text": "before"]]
        ]
        for (number, slot) in slots.enumerated() {
            entries.append(["date": Self.iso(date(ofSlot: slot)), "content": ["text": "entry \(number)"]])
        }
        let last = date(ofSlot: slots.last ?? 1)
        return ["entries": entries, "policy": ["after": Self.iso(last)]]
    }

    /// `2026-01-05T10:00:00Z` (whole seconds, UTC), without a formatter per thread.
    static func iso(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Hours, minutes and seconds of a date in UTC, for notes.
    static func clockTime(_ date: Date) -> String {
        String(iso(date).dropFirst(11).dropLast())
    }
}
