import Foundation

/// One instance's budgeted reloads, oldest first, trimmed to the 24-hour window as reloads
/// are recorded.
///
/// Up to two dates sit inline as plain numbers (-infinity for "none", as in `ReloadTiming`);
/// only a third spills the dates into an array. Most instances hold none, one or two, and a
/// history is copied with every timing the scheduler reads, so inline dates cost neither an
/// allocation, a retain, nor a cache line of their own. The spilled array is only ever
/// non-nil with three dates or more, so equal histories have equal fields.
public struct BudgetHistory: Sendable, Hashable, RandomAccessCollection {
    private var first = -Double.infinity
    private var second = -Double.infinity
    private var spilled: [Date]?

    public init(_ dates: [Date] = []) {
        set(dates.sorted())
    }

    /// The dates, oldest first.
    public var dates: [Date] { spilled ?? Array(self) }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        if let spilled { return spilled.count }
        return first == -.infinity ? 0 : second == -.infinity ? 1 : 2
    }

    public subscript(position: Int) -> Date {
        if let spilled { return spilled[position] }
        precondition(position >= 0 && position < endIndex, "budget history index out of range")
        return Date(timeIntervalSinceReferenceDate: position == 0 ? first : second)
    }

    public mutating func record(_ date: Date) {
        let expired = date.addingTimeInterval(-ReloadBudget.window).timeIntervalSinceReferenceDate
        let seconds = date.timeIntervalSinceReferenceDate
        if var list = spilled {
            spilled = nil
            list.append(date)
            if let head = list.first, head.timeIntervalSinceReferenceDate <= expired {
                list.removeAll { $0.timeIntervalSinceReferenceDate <= expired }
            }
            set(list)
        } else if first == -.infinity {
            first = seconds
        } else if first <= expired {
            // As the array did: once the oldest has left the window, every date that has goes.
            if second == -.infinity || second <= expired {
                first = seconds
                second = -.infinity
            } else {
                first = second
                second = seconds
            }
        } else if second == -.infinity {
            second = seconds
        } else {
            set([Date(timeIntervalSinceReferenceDate: first), Date(timeIntervalSinceReferenceDate: second), date])
        }
    }

    /// Reloads recorded after `now` (the wall clock went back) count as made at `now`.
    public mutating func clamp(notAfter now: Date) {
        guard let last, last > now else { return }
        if var list = spilled {
            spilled = nil
            for index in list.indices where list[index] > now { list[index] = now }
            set(list)
            return
        }
        let seconds = now.timeIntervalSinceReferenceDate
        first = Swift.min(first, seconds)
        if second != -.infinity { second = Swift.min(second, seconds) }
    }

    /// Holds `dates` in order: inline when two or fewer, spilled otherwise.
    private mutating func set(_ dates: [Date]) {
        first = -.infinity
        second = -.infinity
        spilled = nil
        if dates.count > 2 {
            spilled = dates
            return
        }
        if dates.count > 0 { first = dates[0].timeIntervalSinceReferenceDate }
        if dates.count > 1 { second = dates[1].timeIntervalSinceReferenceDate }
    }
}
