import Foundation
import Testing

@testable import WidgetCore
@testable import WidgetTestSupport

/// The id table against a dictionary: inserts, removals from the middle of probe runs, and
/// growth keep every id found at its slot and no other.
@Suite("Slot index")
struct SlotIndexTests {
    @Test func randomInsertsAndRemovalsMatchADictionary() {
        var rng = SplitMix64(seed: 0x1D)
        var index = SlotIndex()
        var ids: [InstanceID] = []  // by slot; "" when free
        var model: [InstanceID: Int32] = [:]
        for step in 0..<30_000 {
            let id = "i\(rng.next() % 3_000)"
            if let slot = model[id] {
                index.remove(id, slot: slot)
                ids[Int(slot)] = ""
                model[id] = nil
            } else {
                let slot = Int32(ids.count)
                ids.append(id)
                index.insert(id, slot: slot)
                model[id] = slot
            }
            #expect(index.count == model.count)
            if step % 1_000 == 0 {
                for probe in (0..<3_000).map({ "i\($0)" }) {
                    #expect(index.slot(of: probe) { ids[Int($0)] == probe } == model[probe])
                }
            }
        }
        for (id, slot) in model { #expect(index.slot(of: id) { ids[Int($0)] == id } == slot) }
    }

    @Test func reservingCapacityKeepsWhatIsThere() {
        var index = SlotIndex()
        let ids = (0..<100).map { "id-\($0)" }
        for (slot, id) in ids.prefix(50).enumerated() { index.insert(id, slot: Int32(slot)) }
        index.reserveCapacity(10_000)
        for (slot, id) in ids.enumerated().dropFirst(50) { index.insert(id, slot: Int32(slot)) }
        for (slot, id) in ids.enumerated() { #expect(index.slot(of: id) { ids[Int($0)] == id } == Int32(slot)) }
        #expect(index.slot(of: "absent") { ids[Int($0)] == "absent" } == nil)
    }
}
