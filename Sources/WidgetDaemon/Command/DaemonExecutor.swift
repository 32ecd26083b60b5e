import CExecutorHook
import NIOCore
import NIOPosix
import Synchronization

/// Makes the daemon's one event loop Swift concurrency's global executor too.
///
/// Why: on Linux the default global executor is libdispatch's thread pool, and the first
/// worker thread of that pool starts a monitor that wakes the process every second for as
/// long as it lives, with work or without. A daemon for phone shells and car displays must
/// not wake when nothing is due, so every task (the service group, the connection handlers'
/// hops, the provider launches' bookkeeping) runs on the event loop that already serves the
/// engine, the connections and the timer, and that sleeps in `epoll_wait` until one of them
/// needs it. Blocking work stays off it: commits and `sd_notify` have threads of their own
/// (`WorkerThread`), and each provider runs on a thread of its own.
///
/// Why not NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`:
/// it finds the runtime's hook with `dlsym`, which finds nothing in a program built with
/// `--static-swift-stdlib` (the package's build), so the installed daemon ran its tasks on
/// libdispatch's pool. The hook is reached here through a reference the linker resolves
/// (`CExecutorHook`), the same in every build.
public enum DaemonExecutor {
    private static let installed = Mutex<Bool?>(nil)

    /// The runtime's hook: called with every job enqueued on the global executor and the
    /// runtime's own enqueue, which it does not use.
    private typealias EnqueueHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

    /// Call first thing in `main`, before any task has run.
    public static func install() {
        NIOSingletons.groupLoopCountSuggestion = 1
        let slot = widgetd_enqueue_global_hook()!
        // Another library got there first: leave its executor in place and say so at start.
        guard slot.pointee == nil else { return installed.withLock { $0 = false } }
        let hook: EnqueueHook = { job, _ in
            MultiThreadedEventLoopGroup.singleton.next().executor.enqueue(ExecutorJob(job))
        }
        // Before any task has run there is no other thread to race with.
        slot.pointee = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)
        installed.withLock { $0 = true }
    }

    /// Whether `install` took over the global executor (false when another library had set
    /// the runtime's hook, or it was not called: tasks then run on libdispatch's pool).
    static var isInstalled: Bool { installed.withLock { $0 ?? false } }

    /// The loop every part of the daemon runs on.
    static var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }
}
