import Foundation
import Testing
import WidgetCore
@testable import WidgetTestSupport

/// `BudgetHistory` keeps up to two dates inline and spills to an array past that. Whatever it
/// holds, it keeps the dates an array would: the same dates, in the same order, pruned when
/// the same reload is recorded, clamped the same way, and equal when the arrays are.
@Suite("Budget history")
struct BudgetHistoryTests {
    /// The history as an array of dates, as it was kept before it went inline.
    struct ArrayHistory: Equatable {
        var dates: [Date]

        init(_ dates: [Date] = []) { self.dates = dates.sorted() }

        mutating func record(_ date: Date) {
            dates.append(date)
            let expired = date.addingTimeInterval(-ReloadBudget.window)
            if let first = dates.first, first <= expired {
                dates.removeAll { $0 <= expired }
            }
        }

        mutating func clamp(notAfter now: Date) {
            for index in dates.indices where dates[index] > now { dates[index] = now }
        }
    }

    @Test func randomRecordsAndClampsKeepWhatAnArrayKeeps() {
        var random = SplitMix64(seed: 26)
        let hour: TimeInterval = 3600
        for _ in 0..<2_000 {
            var now = t0
            let start = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                t0 + TimeInterval(Int.random(in: -30...2, using: &random)) * hour
            }
            var inline = BudgetHistory(start)
            var array = ArrayHistory(start)
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                // Mostly forward by minutes to a day and more; sometimes the clock goes back.
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    now -= TimeInterval(Int.random(in: 1...10, using: &random)) * hour
                    inline.clamp(notAfter: now)
                    array.clamp(notAfter: now)
                case 1:
                    now += TimeInterval(Int.random(in: 20...30, using: &random)) * hour
                    inline.record(now)
                    array.record(now)
                default:
                    now += TimeInterval(Int.random(in: 1...600, using: &random)) * 60
                    inline.record(now)
                    array.record(now)
                }
                #expect(inline.dates == array.dates)
                #expect(Array(inline) == array.dates)
                #expect(inline.count == array.dates.count)
                #expect(inline.last == array.dates.last)
                // A step back can leave them out of order, which the initializer would sort.
                if array.dates == array.dates.sorted() { #expect(inline == BudgetHistory(array.dates)) }
            }
        }
    }

    @Test func prunesOnlyWhenTheOldestHasLeftTheWindow() {
        let day = ReloadBudget.window
        // The oldest still in the window: nothing goes, even a later date that has left it
        // (only a clock step back leaves dates out of order).
        var history = BudgetHistory()
        history.record(t0 + 100)
        history.clamp(notAfter: t0 + 50)
        history.record(t0 + 10)
        #expect(history.dates == [t0 + 50, t0 + 10])
        history.record(t0 + day + 20)
        #expect(history.dates == [t0 + 50, t0 + 10, t0 + day + 20])
        // The oldest gone: everything that left the window goes with it.
        history.record(t0 + day + 60)
        #expect(history.dates == [t0 + day + 20, t0 + day + 60])
    }

    @Test func spillsAtThreeAndComesBackInline() {
        let day = ReloadBudget.window
        var history = BudgetHistory([t0, t0 + 60])
        history.record(t0 + 120)
        #expect(history.dates == [t0, t0 + 60, t0 + 120])
        history.record(t0 + day + 90)
        #expect(history.dates == [t0 + 120, t0 + day + 90])
        #expect(history == BudgetHistory([t0 + day + 90, t0 + 120]))
        #expect(history.hashValue == BudgetHistory([t0 + 120, t0 + day + 90]).hashValue)
        #expect(BudgetHistory().isEmpty)
        #expect(BudgetHistory().dates == [])
    }
}
