import Foundation
import WidgetDescriptorFiles

/// Runs providers as child processes. Each runs in its own process group, under its memory
/// and CPU limits, under systemd in a transient scope of its own (`LaunchScopes`), and the
/// end of its launch kills its scope and sweeps every process it started, including ones
/// that left the group (`LaunchContainment`). The blocking I/O happens on a launch thread
/// (`LaunchThreads`), never on the event loop.
public final class ExecProviderRunner: ProviderRunning {
    private let threads: LaunchThreads
    private let containment = LaunchContainment()
    private let scopes: LaunchScopes?
    /// Looks programs up as `posix_spawnp` does, on the daemon's PATH.
    private let programs = SystemPrograms()

    public convenience init(maxConcurrent: Int) {
        self.init(maxConcurrent: maxConcurrent, scopes: nil)
    }

    /// `scopes`: under systemd, the manager that gives each launch a scope.
    init(maxConcurrent: Int, scopes: LaunchScopes?) {
        threads = LaunchThreads(limit: maxConcurrent, name: "widgetd-launch")
        self.scopes = scopes
    }

    public var running: Int {
        containment.running
    }

    /// How long a launch's end waits for what it killed to exit so it can be reaped.
    static let sweepGrace: Duration = .seconds(2)

    public func run(_ invocation: ProviderInvocation) async throws(ProviderFailure) -> Data {
        let result: Result<Data, ProviderFailure> = await withCheckedContinuation { continuation in
            threads.run { continuation.resume(returning: self.runBlocking(invocation)) }
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
        containment.killAll()
    }

    private func runBlocking(_ invocation: ProviderInvocation) -> Result<Data, ProviderFailure> {
        // Checked again right before it runs (it was when its descriptor was read): a program
        // made writable by others since then must not run as the daemon's user.
        if let problem = programs.problem(running: invocation.exec[0], owner: invocation.owner) {
            return .failure(.spawnFailed(problem))
        }
        let child: SpawnedChild
        let start: UInt64
        do {
            (child, start) = try containment.spawn(
                argv: invocation.exec + [invocation.verb],
                limits: SpawnedChild.Limits(memoryMax: invocation.memoryMax, cpuSeconds: invocation.cpuMax))
        } catch {
            return .failure(error)
        }
        // Moved in right after the start: what the provider starts from then on is in its
        // scope; anything started before is still swept below.
        let scope = scopes?.contain(
            child.pid, program: invocation.exec[0], memoryMax: invocation.memoryMax, cpuQuota: invocation.cpuQuota)
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
            case .signaled(SIGKILL) where scope?.oomKilled == true:
                // The kernel's OOM killer, at the scope's MemoryMax=.
                result = .failure(
                    .pastLimit(setting: "memory-max", limit: "\(invocation.memoryMax) bytes, its scope's MemoryMax=",
                               .signaled(SIGKILL, stderr: stderr)))
            case .signaled(let signal):
                result = .failure(
                    ProviderFailure.signaled(signal, stderr: stderr)
                        .explained(memoryMax: invocation.memoryMax, cpuMax: invocation.cpuMax))
            }
        }
        end(child, start: start, reaped: reaped, scope: scope)
        return result
    }

    /// Ends the launch. A provider still running is killed after its descendants, while it
    /// still stands as their ancestor (killed first, it would leave them orphans to be told
    /// from another launch's), then with its group, and reaped. Then what the launch left
    /// (orphans, their zombies) is swept and reaped. Under systemd the scope is killed first:
    /// everything in it dies, wherever it moved in the process tree.
    private func end(_ child: SpawnedChild, start: UInt64, reaped: Bool, scope: LaunchScope?) {
        let grace = ContinuousClock.now + Self.sweepGrace
        scope?.end()
        if !reaped {
            containment.sweep(ending: child.pid, until: grace)
            kill(-child.pid, SIGKILL)
            _ = child.wait(until: nil)
        }
        containment.finish(child.pid, start: start)
        containment.sweep(ending: nil, until: grace)
    }
}
