import CSystemd
import Glibc
import Synchronization

/// Keeps each launch's processes within its reach: the providers running now, started under
/// the same lock a sweep reads the tree under (so a provider being started is never taken for
/// an orphan), and the sweep that ends whatever a launch left behind.
final class LaunchContainment: Sendable {
    private struct Launches {
        /// The providers running now and their start times.
        var live: [pid_t: UInt64] = [:]
        /// When the first provider started: no earlier child of the daemon is a launch's.
        var since: UInt64?
        /// The daemon is stopping: launches still waiting for a thread start nothing.
        var stopped = false
    }

    private let launches = Mutex(Launches())
    private let daemon = getpid()

    var running: Int { launches.withLock { $0.live.count } }
    var providers: [pid_t] { launches.withLock { Array($0.live.keys) } }

    /// Starts the provider and counts it as running; returns it with its start time.
    func spawn(argv: [String], limits: SpawnedChild.Limits) throws(ProviderFailure) -> (SpawnedChild, UInt64) {
        try launches.withLock { (launches: inout Launches) throws(ProviderFailure) -> (SpawnedChild, UInt64) in
            // Under the lock `stopLaunching` takes: a provider is either refused here or among
            // those the stop kills.
            guard !launches.stopped else { throw .spawnFailed("widgetd is stopping") }
            let child = try SpawnedChild.spawn(argv: argv, limits: limits)
            // Not yet reaped by anyone, so /proc names the child itself.
            let start = ProcessTree.stat(child.pid)?.start ?? 0
            launches.live[child.pid] = start
            if launches.since == nil { launches.since = start }
            return (child, start)
        }
    }

    /// The provider, reaped, no longer runs. By its start time too: once reaped, its pid may
    /// already be another launch's provider.
    func finish(_ provider: pid_t, start: UInt64) {
        launches.withLock { launches in
            if launches.live[provider] == start { launches.live[provider] = nil }
        }
    }

    /// Ends what the launch of `provider` left: the provider's descendants while it still
    /// runs (nil once it is reaped), and the daemon's orphans no running launch could claim,
    /// each killed and, once it is the daemon's child, reaped. The provider itself is
    /// neither: its launch reaps it. Until `deadline`; whatever is left (a process in
    /// uninterruptible sleep) is taken by a later launch's sweep.
    func sweep(ending provider: pid_t?, until deadline: ContinuousClock.Instant) {
        var killed: [pid_t: UInt64] = [:]
        while true {
            let targets = launches.withLock { launches in
                guard let since = launches.since else { return [TreeProcess]() }
                var others = launches.live
                if let provider { others[provider] = nil }
                return ProcessTree.read(daemon: daemon).sweep(daemon: daemon, ending: provider, live: others, since: since)
            }
            var waiting = false
            for target in targets {
                if target.zombie {
                    // The daemon's own child: only the daemon can reap it, so the pid is still
                    // this one. Another's zombie is its parent's to reap, or the daemon's once
                    // that parent is gone too (the next sweep).
                    if target.parent == daemon {
                        var status: CInt = 0
                        // Its own zombie children are re-parented to the daemon: another round.
                        if waitpid(target.pid, &status, WNOHANG) > 0 { waiting = true }
                    }
                    continue
                }
                waiting = true
                if killed[target.pid] == target.start { continue }
                if Self.kill(target) { killed[target.pid] = target.start }
            }
            guard waiting, ContinuousClock.now < deadline else { return }
            // Killed processes take a moment to exit; their parents, or the daemon once
            // they are re-parented to it, reap them.
            usleep(1000)
        }
    }

    /// Shutdown: no provider starts from now on.
    func stopLaunching() {
        launches.withLock { $0.stopped = true }
    }

    /// Kills what every launch left and the providers' trees (shutdown).
    func killAll() {
        let targets = launches.withLock { launches in
            guard let since = launches.since else { return [TreeProcess]() }
            let tree = ProcessTree.read(daemon: daemon)
            return tree.sweep(daemon: daemon, ending: nil, live: [:], since: since)
        }
        for target in targets { _ = Self.kill(target) }
    }

    /// SIGKILL through a pidfd opened for the process whose start time is the one the tree
    /// read: a pid since given to another process is left alone.
    private static func kill(_ target: TreeProcess) -> Bool {
        let fd = widgetd_pidfd_open(target.pid)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let now = ProcessTree.stat(target.pid), now.start == target.start else { return false }
        return widgetd_pidfd_send_signal(fd, SIGKILL) == 0
    }
}
