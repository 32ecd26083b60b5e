import Dispatch
import Foundation

/// Work on many independent items spread over the machine's cores, with the results in the
/// items' order, so the outcome is the same on one core as on many. Each thread takes one
/// contiguous run of items and gets its own scratch value (`makeScratch`), for caches that
/// must not be shared between threads.
public enum ParallelMap {
    /// Below this many items per thread, starting the threads costs more than it saves.
    static let minimumPerThread = 64

    public static func map<Item, Scratch, Result>(
        _ items: [Item], makeScratch: () -> Scratch, _ transform: (Item, inout Scratch) -> Result
    ) -> [Result] {
        let threads = min(ProcessInfo.processInfo.activeProcessorCount, items.count / minimumPerThread)
        guard threads > 1 else {
            var scratch = makeScratch()
            return items.map { transform($0, &scratch) }
        }
        return [Result](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let out = SharedBuffer(base: buffer.baseAddress!)
            // Each run writes only its own range of the buffer.
            withoutActuallyEscaping(transform) { transform in
                withoutActuallyEscaping(makeScratch) { makeScratch in
                    let work = UnsafeWork(items: items, transform: transform, makeScratch: makeScratch)
                    let count = items.count
                    DispatchQueue.concurrentPerform(iterations: threads) { run in
                        let range = (count * run / threads)..<(count * (run + 1) / threads)
                        var scratch = work.makeScratch()
                        for index in range { (out.base + index).initialize(to: work.transform(work.items[index], &scratch)) }
                    }
                }
            }
            initialized = items.count
        }
    }

    /// The buffer the runs fill, each its own range.
    private struct SharedBuffer<Result>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Result>
    }

    /// The items and the caller's closures, used from the runs, which only read them.
    private struct UnsafeWork<Item, Scratch, Result>: @unchecked Sendable {
        let items: [Item]
        let transform: (Item, inout Scratch) -> Result
        let makeScratch: () -> Scratch
    }
}
