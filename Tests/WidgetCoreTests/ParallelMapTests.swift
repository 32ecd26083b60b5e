import Foundation
import Testing
@testable import WidgetCore

@Suite struct ParallelMapTests {
    /// Results come back in the items' order, each worked out once, whatever the threads did.
    @Test(arguments: [0, 1, 63, 64, 127, 128, 1000, 10_007])
    func resultsAreInTheItemsOrder(count: Int) {
        let items = Array(0..<count)
        let results = ParallelMap.map(items, makeScratch: { 0 }) { item, calls in
            calls += 1
            return (item * 7, calls)
        }
        #expect(results.map(\.0) == items.map { $0 * 7 })
        // Each thread's scratch counts its own calls from 1: at most one run per thread, each
        // run contiguous.
        let restarts = results.indices.filter { results[$0].1 == 1 }
        #expect(restarts.count <= max(1, ProcessInfo.processInfo.activeProcessorCount))
        if count > 0 { #expect(restarts.first == 0) }
        for index in results.indices.dropFirst() where !restarts.contains(index) {
            #expect(results[index].1 == results[index - 1].1 + 1)
        }
    }

    /// Classes made on the threads come back whole (the buffer is filled before it is read).
    @Test func referencesMadeOnTheThreadsSurvive() {
        final class Box: Sendable {
            let value: String
            init(_ value: String) { self.value = value }
        }
        let results = ParallelMap.map(Array(0..<5000), makeScratch: {}) { item, _ in Box("item \(item)") }
        #expect(results.map(\.value) == (0..<5000).map { "item \($0)" })
    }
}
