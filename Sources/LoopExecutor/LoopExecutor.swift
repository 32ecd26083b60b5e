import CExecutorHook
import NIOCore
import NIOPosix
import Synchronization

/// Makes NIO's event loop Swift concurrency's global executor too, for widgetd and widgetd-web.
///
/// Why: on Linux the default global executor is libdispatch's thread pool, and the first
/// worker thread of that pool starts a monitor that wakes the process every second for as
/// long as it lives, with work or without. A daemon (or a kiosk's web host) for phone shells
/// and car displays must not wake when nothing is due, so every task (the service group, the
/// connection handlers' hops, the provider launches' bookkeeping, Hummingbird's handlers)
/// runs on the event loop that already serves the connections and the timers, and that sleeps
/// in `epoll_wait` until one of them needs it. Blocking work stays off it: the daemon's
/// commits and `sd_notify` have threads of their own (`WorkerThread`), and each provider runs
/// on a thread of its own.
///
/// Why not NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`:
/// it finds the runtime's hook with `dlsym`, which finds nothing in a program built with
/// `--static-swift-stdlib` (the package's build), so the installed daemon ran its tasks on
/// libdispatch's pool. The hook is reached here through a reference the linker resolves
/// (`CExecutorHook`), the same in every build.
public enum LoopExecutor {
    private static let installed = Mutex<Bool?>(nil)

    /// The runtime's hook: called with every job enqueued on the global executor and the
    /// runtime's own enqueue, which it does not use.
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Call first thing in `main`, before any task has run. `loops` is the number of event
    /// loops of NIO's shared group (the daemon runs on one).
    public static func install(loops: Int = 1) {
        NIOSingletons.groupLoopCountSuggestion = loops
        let slot = widgetd_enqueue_global_hook()!
        // Another library got there first: leave its executor in place and say so at start.
        guard slot.pointee == nil else { return installed.withLock { $0 = false } }
        let hook: EnqueueHook = { job, _ in
            // `any()` keeps a job enqueued from a loop on that loop.
            MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
        }
        // Before any task has run there is no other thread to race with.
        slot.pointee = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)
        installed.withLock { $0 = true }
    }

    /// Whether `install` took over the global executor (false when another library had set
    /// the runtime's hook, or it was not called: tasks then run on libdispatch's pool).
    public static var isInstalled: Bool { installed.withLock { $0 ?? false } }

    /// The loop every part of the daemon runs on.
    public static var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }
}
