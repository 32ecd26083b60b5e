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
public enum DaemonExecutor {
    private static let installed = Mutex<Bool?>(nil)

    /// Call first thing in `main`, before any task has run.
    public static func install() {
        NIOSingletons.groupLoopCountSuggestion = 1
        let done = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        installed.withLock { $0 = done }
    }

    /// Whether `install` took over the global executor (false when the runtime offers no hook,
    /// or it was not called: tasks then run on libdispatch's pool).
    static var isInstalled: Bool { installed.withLock { $0 ?? false } }

    /// The loop every part of the daemon runs on.
    static var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.next() }
}
