import Foundation
import Testing

@testable import WidgetCore
@testable import WidgetTestSupport

/// The scheduler's indexed heap against a plain model: after any mix of inserts, moves and
/// removals it yields the model's order, and the position table stays exact.
@Suite("Slot heap")
struct SlotHeapTests {
    @Test func randomOperationsMatchASortedModel() {
        var rng = SplitMix64(seed: 0x51_07)
        let handles = 500
        var heap = SlotHeap()
        var positions = [Int32](repeating: SlotHeap.absent, count: handles)
        var model: [Int32: (date: Double, tie: UInt32)] = [:]
        var tie: UInt32 = 0
        for _ in 0..<20_000 {
            let handle = Int32(rng.next() % UInt64(handles))
            switch rng.next() % 4 {
            case 0:
                heap.remove(handle, positions: &positions)
                model[handle] = nil
            default:
                // Few distinct dates, so ties are common and must fall back to `tie`.
                let date = Double(rng.next() % 50)
                tie += 1
                heap.set(handle, date: date, tie: tie, positions: &positions)
                model[handle] = (date, tie)
            }
            #expect(heap.count == model.count)
        }
        for (handle, position) in positions.enumerated() {
            if model[Int32(handle)] == nil {
                #expect(position == SlotHeap.absent)
            } else {
                #expect(heap.nodes[Int(position)].handle == Int32(handle))
            }
        }
        // Everything dated 10 or earlier, exactly once.
        var early: [Int32] = []
        heap.forEach(through: 10) { early.append($0.handle) }
        #expect(early.sorted() == model.filter { $0.value.date <= 10 }.keys.sorted())
        // Draining by repeated removal of the minimum gives the model's order.
        let expected = model.sorted { ($0.value.date, $0.value.tie) < ($1.value.date, $1.value.tie) }.map(\.key)
        var drained: [Int32] = []
        while let top = heap.min {
            drained.append(top.handle)
            heap.remove(top.handle, positions: &positions)
        }
        #expect(drained == expected)
        #expect(positions.allSatisfy { $0 == SlotHeap.absent })
    }

    @Test func forEachThroughADateBeforeEverythingVisitsNothing() {
        var heap = SlotHeap()
        var positions = [Int32](repeating: SlotHeap.absent, count: 3)
        for handle in 0..<3 { heap.set(Int32(handle), date: 5, tie: UInt32(handle), positions: &positions) }
        var visited = 0
        heap.forEach(through: 4.999) { _ in visited += 1 }
        #expect(visited == 0)
        heap.forEach(through: 5) { _ in visited += 1 }
        #expect(visited == 3)
    }

    @Test func renumberingTiesChangesNoOrder() {
        // Two schedulers fed the same changes, one renumbering its ties every few steps: they
        // must produce the same events. Few distinct dates make equal-date ties common.
        var small = makeScheduler(window: 5, limit: 3, spacing: 10)
        small.sequenceLimit = 40
        var normal = makeScheduler(window: 5, limit: 3, spacing: 10)
        var rng = SplitMix64(seed: 0x7135)
        let ids = (0..<12).map { "i\($0)" }
        for (index, id) in ids.enumerated() {
            small.add(id, kind: "k", providerKey: "p\(index % 3)")
            normal.add(id, kind: "k", providerKey: "p\(index % 3)")
        }
        var now = t0
        for _ in 0..<2_000 {
            let id = ids[Int(rng.next() % UInt64(ids.count))]
            let date = now + TimeInterval(rng.next() % 20)
            switch rng.next() % 3 {
            case 0:
                small.setPolicyDue(id, date)
                normal.setPolicyDue(id, date)
            case 1:
                small.setNextEntryChange(id, date)
                normal.setNextEntryChange(id, date)
            default:
                small.request(id, reason: .requested, at: date)
                normal.request(id, reason: .requested, at: date)
            }
            now += TimeInterval(rng.next() % 3)
            let events = small.popDue(now: now)
            #expect(events == normal.popDue(now: now))
            for case .reload(let batch) in events {
                for member in batch.members {
                    small.completed(member.instance, policyDue: nil)
                    normal.completed(member.instance, policyDue: nil)
                }
            }
        }
        #expect(small.pendingReloads() == normal.pendingReloads())
    }
}
