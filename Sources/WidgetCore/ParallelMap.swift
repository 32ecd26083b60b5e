import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Work on many independent items spread over the machine's cores, with the results in the
/// items' order, so the outcome is the same on one core as on many. Each thread takes one
/// contiguous run of items and gets its own scratch value (`makeScratch`), for caches that
/// must not be shared between threads.
///
/// The runs go on threads started for the call and joined before it returns, not on
/// libdispatch's pool: the pool, once started, keeps a monitor that wakes the process every
/// second, and the daemon sleeps without a timeout when nothing is due.
public enum ParallelMap {
    /// Below this many items per thread, starting the threads costs more than it saves.
    static let minimumPerThread = 64

    /// Read once: Foundation reads it from the system on every call.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    public static func map<Item, Scratch, Result>(
        _ items: [Item], makeScratch: () -> Scratch, _ transform: (Item, inout Scratch) -> Result
    ) -> [Result] {
        let runs = min(cores, items.count / minimumPerThread)
        guard runs > 1 else {
            var scratch = makeScratch()
            return items.map { transform($0, &scratch) }
        }
        return [Result](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let out = buffer.baseAddress!
            withoutActuallyEscaping(transform) { transform in
                withoutActuallyEscaping(makeScratch) { makeScratch in
                    // Each run writes only its own range of the buffer.
                    let work = Work(run: { run in
                        let range = (items.count * run / runs)..<(items.count * (run + 1) / runs)
                        var scratch = makeScratch()
                        for index in range { (out + index).initialize(to: transform(items[index], &scratch)) }
                    })
                    let threads = (1..<runs).map { run in work.start(run) }
                    work.body(0)
                    for (run, thread) in zip(1..., threads) {
                        // A thread that could not be started is run here instead.
                        guard let thread else {
                            work.body(run)
                            continue
                        }
                        pthread_join(thread, nil)
                    }
                }
            }
            initialized = items.count
        }
    }

    /// One call's work, run on the threads it starts; `body(run)` does one contiguous run.
    /// Unchecked: every thread is joined before the call returns, and each writes its own range.
    private final class Work: @unchecked Sendable {
        let body: (Int) -> Void

        init(run body: @escaping (Int) -> Void) {
            self.body = body
        }

        /// A thread running `body(run)`; nil when none could be started.
        func start(_ run: Int) -> pthread_t? {
            let context = Unmanaged.passRetained(RunContext(work: self, run: run)).toOpaque()
            var thread = pthread_t()
            guard pthread_create(&thread, nil, { raw in
                let context = Unmanaged<RunContext>.fromOpaque(raw!).takeRetainedValue()
                context.work.body(context.run)
                return nil
            }, context) == 0 else {
                Unmanaged<RunContext>.fromOpaque(context).release()
                return nil
            }
            return thread
        }
    }

    private final class RunContext: @unchecked Sendable {
        let work: Work
        let run: Int

        init(work: Work, run: Int) {
            self.work = work
            self.run = run
        }
    }
}
