import Foundation
import Testing

@testable import WidgetCore
@testable import WidgetTestSupport

/// The timing wheel against a plain model: after any mix of inserts, moves and removals, over
/// dates from equal seconds to thousands of years apart and going back, it yields the model's
/// earliest handle, the model's set for `forEach(through:)`, and the model's order when drained.
@Suite("Timing wheel")
struct TimingWheelTests {
    /// Runs `steps` random operations on `handles` handles with dates from `date`, checking the
    /// earliest handle after each one, then drains the wheel.
    func check(seed: UInt64, handles: Int, steps: Int, date: (inout SplitMix64) -> Double) {
        check(shape: .fine, seed: seed, handles: handles, steps: steps, date: date)
        check(shape: .coarse, seed: seed, handles: handles, steps: steps, date: date)
    }

    func check(shape: TimingWheel.Shape, seed: UInt64, handles: Int, steps: Int, date: (inout SplitMix64) -> Double) {
        var rng = SplitMix64(seed: seed)
        var wheel = TimingWheel(shape: shape)
        var positions = TimingWheel.Positions()
        positions.append(absent: handles)
        var model: [Int32: (date: Double, tie: UInt32)] = [:]
        var tie: UInt32 = 0
        for step in 0..<steps {
            let handle = Int32(rng.next() % UInt64(handles))
            if rng.next() % 4 == 0 {
                wheel.remove(handle, positions: &positions)
                model[handle] = nil
            } else {
                tie += 1
                let value = date(&rng)
                wheel.set(handle, date: value, tie: tie, positions: &positions)
                model[handle] = (value, tie)
            }
            #expect(wheel.count == model.count)
            // The model's minimum costs a pass over it: checked often, not after every step.
            if step % (handles / 100 + 1) == 0 {
                let earliest = model.min { ($0.value.date, $0.value.tie) < ($1.value.date, $1.value.tie) }
                #expect(wheel.min?.handle == earliest?.key, "step \(step)")
            }
            if step % 97 == 0, let probe = model.randomElement(using: &rng)?.value.date {
                var seen: [Int32] = []
                wheel.forEach(through: probe) { seen.append($0) }
                #expect(seen.sorted() == model.filter { $0.value.date <= probe }.keys.sorted())
            }
        }
        for handle in 0..<Int32(handles) {
            #expect(positions.contains(handle) == (model[handle] != nil))
        }
        let expected = model.sorted { ($0.value.date, $0.value.tie) < ($1.value.date, $1.value.tie) }.map(\.key)
        var drained: [Int32] = []
        while let top = wheel.min {
            drained.append(top.handle)
            wheel.remove(top.handle, positions: &positions)
        }
        #expect(drained == expected)
        #expect(wheel.isEmpty)
        #expect((0..<Int32(handles)).allSatisfy { !positions.contains($0) })
    }

    @Test func equalSecondsOrderByTie() {
        // Few distinct dates: ties decide, and everything sits in the near heap or level 0.
        check(seed: 0x3E1, handles: 300, steps: 20_000) { Double($0.next() % 40) }
    }

    @Test func datesAcrossEveryLevel() {
        // Fractions of a second to ten thousand years, either side of the reference date.
        check(seed: 0x3E2, handles: 2_000, steps: 40_000) { rng in
            let scale = pow(2.0, Double(rng.next() % 39))
            let sign = rng.next() % 8 == 0 ? -1.0 : 1.0
            return sign * scale * Double(rng.next() % 1_000_000) / 1_000_000
        }
    }

    @Test func aMovingNowThatSometimesGoesBack() {
        // A clock that mostly moves forward by seconds to days and sometimes steps back a
        // week: dates set after it land before the cursor and the near heap grows until the
        // wheel is placed again.
        var now = 800_000_000.0
        check(seed: 0x3E3, handles: 2_000, steps: 40_000) { rng in
            switch rng.next() % 100 {
            case 0: now -= 7 * 86_400
            case 1..<30: now += Double(rng.next() % 86_400)
            default: now += Double(rng.next() % 10)
            }
            return now + Double(rng.next() % 3_600_000) / 1_000
        }
    }

    @Test func extremeDatesShareTheEdgeTicks() {
        let edges: [Double] = [-.infinity, -1e300, -1e15, 1e15, 1e300, .infinity, Date.distantPast.timeIntervalSinceReferenceDate,
            Date.distantFuture.timeIntervalSinceReferenceDate, 0, -0.0]
        check(seed: 0x3E4, handles: 100, steps: 5_000) { rng in
            rng.next() % 2 == 0 ? edges[Int(rng.next() % UInt64(edges.count))] : Double(rng.next() % 1_000)
        }
    }

    @Test func ticksFollowDates() {
        let dates: [Double] = [-.infinity, -1e20, -1.5, -1, -0.5, -0.0, 0, 0.5, 1, 1e9, 1e20, .infinity]
        let ticks = dates.map(TimingWheel.seconds)
        #expect(ticks == ticks.sorted())
        #expect(TimingWheel.seconds(-0.0) == TimingWheel.seconds(0))
        #expect(TimingWheel.seconds(0.999) == TimingWheel.seconds(0))
        #expect(TimingWheel.seconds(1) == TimingWheel.seconds(0) + 1)
    }
}
