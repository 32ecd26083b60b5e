import Foundation
import WidgetDescriptorFiles

/// Runs providers as child processes. Each runs in its own process group, under its memory
/// and CPU limits, under systemd in a cgroup of its own (a group of the system service's
/// delegated subtree, `DelegatedCgroups`, or a transient scope, `LaunchScopes`), and the end
/// of its launch kills that group and sweeps every process it started, including ones that
/// left the process group (`LaunchContainment`). The blocking I/O happens on a launch thread
/// (`LaunchThreads`), never on the event loop.
public final class ExecProviderRunner: ProviderRunning {
    private let threads: LaunchThreads
    private let containment = LaunchContainment()
    private let scopes: LaunchScopes?
    private let cgroups: DelegatedCgroups?
    /// Looks programs up as `posix_spawnp` does, on the daemon's PATH.
    private let programs = SystemPrograms()

    public convenience init(maxConcurrent: Int) {
        self.init(maxConcurrent: maxConcurrent, scopes: nil, cgroups: nil)
    }

    /// Under systemd, what gives each launch a group of its own: `cgroups`, the service's
    /// delegated subtree, where it has one; else `scopes`, the manager's transient scopes.
    init(maxConcurrent: Int, scopes: LaunchScopes?, cgroups: DelegatedCgroups? = nil) {
        threads = LaunchThreads(limit: maxConcurrent, name: "widgetd-launch")
        self.scopes = scopes
        self.cgroups = cgroups
    }

    public var running: Int {
        containment.running
    }

    /// How long a launch's end waits for what it killed to exit so it can be reaped.
    static let sweepGrace: Duration = .seconds(2)

    public func run(_ invocation: ProviderInvocation) async throws(ProviderFailure) -> Data {
        let result: Result<Data, ProviderFailure> = await withCheckedContinuation { continuation in
            threads.run {
                let (result, sweep) = self.runBlocking(invocation)
                continuation.resume(returning: result)
                // After the answer is handed on: a reaped provider's answer does not depend on
                // what it left behind, and reading the process tree was a part of every
                // launch's time. The thread stays taken until the sweep ends, so
                // `max-concurrent` still bounds the launches and their sweeps together.
                sweep?()
            }
        }
        return try result.get()
    }

    public func setMaxConcurrent(_ limit: Int) async {
        threads.setLimit(limit)
    }

    public func terminateAll() async {
        // The launches still waiting for a thread would otherwise each start its provider
        // while the daemon waits for its launches to end.
        containment.stopLaunching()
        for pid in containment.providers {
            kill(-pid, SIGKILL)
        }
        cgroups?.killAll()
        containment.killAll()
    }

    /// The launch's answer, and what is left to do once it is handed on: the end of a launch
    /// whose provider was reaped.
    private func runBlocking(_ invocation: ProviderInvocation) -> (Result<Data, ProviderFailure>, (() -> Void)?) {
        // Checked again right before it runs (it was when its descriptor was read): a program
        // made writable by others since then must not run as the daemon's user.
        if let problem = programs.problem(running: invocation.exec[0], owner: invocation.owner) {
            return (.failure(.spawnFailed(problem)), nil)
        }
        // The provider enters its group before its program runs, so all it starts is inside.
        let group = cgroups?.makeGroup(memoryMax: invocation.memoryMax, cpuQuota: invocation.cpuQuota)
        let child: SpawnedChild
        let start: UInt64
        do {
            (child, start) = try containment.spawn(
                argv: invocation.exec + [invocation.verb],
                limits: SpawnedChild.Limits(memoryMax: invocation.memoryMax, cpuSeconds: invocation.cpuMax),
                cgroup: group?.procs ?? -1)
        } catch {
            if let group { cgroups?.remove(group, until: ContinuousClock.now + Self.sweepGrace) }
            return (.failure(error), nil)
        }
        // A scope takes the provider right after its start: what it starts from then on is
        // in its scope; anything started before is still swept below.
        let boundary: (any LaunchBoundary)? = group ?? (cgroups == nil ? scopes?.contain(
            child.pid, program: invocation.exec[0], memoryMax: invocation.memoryMax, cpuQuota: invocation.cpuQuota) : nil)
        let deadline = ContinuousClock.now + .milliseconds(Int64(invocation.timeout * 1000))
        let io = child.exchange(
            input: invocation.request, maxOutput: invocation.maxAnswerBytes, deadline: deadline)
        let result: Result<Data, ProviderFailure>
        var reaped = false
        switch io {
        case .timedOut:
            result = .failure(.timedOut(invocation.timeout))
        case .outputTooLarge:
            result = .failure(.answerTooLarge(invocation.maxAnswerBytes))
        case .finished(let output, let errorOutput):
            let status = child.wait(until: deadline)
            reaped = status != nil
            let stderr = String(decoding: errorOutput, as: UTF8.self)
            switch status {
            case nil:
                result = .failure(.timedOut(invocation.timeout))
            case .exited(0):
                result = .success(output)
            case .exited(let code):
                result = .failure(
                    ProviderFailure.exited(code, stderr: stderr)
                        .explained(memoryMax: invocation.memoryMax, cpuMax: invocation.cpuMax))
            case .signaled(SIGKILL) where boundary?.oomKilled == true:
                // The kernel's OOM killer, at the group's memory limit.
                result = .failure(
                    .pastLimit(setting: "memory-max", limit: "\(invocation.memoryMax) bytes, \(boundary?.memoryLimitName ?? "")",
                               .signaled(SIGKILL, stderr: stderr)))
            case .signaled(let signal):
                result = .failure(
                    ProviderFailure.signaled(signal, stderr: stderr)
                        .explained(memoryMax: invocation.memoryMax, cpuMax: invocation.cpuMax))
            }
        }
        guard reaped else {
            // Still running (timed out, answer too large): killed and reaped before its failure
            // is told, so no launch of the same instance starts beside it.
            end(child, start: start, reaped: false, boundary: boundary)
            return (result, nil)
        }
        // It no longer runs (`providersRunning` in the status says so with its answer).
        containment.finish(child.pid, start: start)
        return (result, { self.end(child, start: start, reaped: true, boundary: boundary) })
    }

    /// Ends the launch. A provider still running is killed after its descendants, while it
    /// still stands as their ancestor (killed first, it would leave them orphans to be told
    /// from another launch's), then with its group, and reaped. Then what the launch left
    /// (orphans, their zombies) is swept and reaped. Under systemd the launch's cgroup is
    /// killed first: everything in it dies, wherever it moved in the process tree; a group
    /// of the delegated subtree is then removed.
    private func end(_ child: SpawnedChild, start: UInt64, reaped: Bool, boundary: (any LaunchBoundary)?) {
        let grace = ContinuousClock.now + Self.sweepGrace
        boundary?.end()
        if !reaped {
            containment.sweep(ending: child.pid, until: grace)
            kill(-child.pid, SIGKILL)
            _ = child.wait(until: nil)
            // A reaped provider's launch was finished when its answer was handed on.
            containment.finish(child.pid, start: start)
        }
        containment.sweep(ending: nil, until: grace)
        if let group = boundary as? LaunchCgroup { cgroups?.remove(group, until: grace) }
    }
}
