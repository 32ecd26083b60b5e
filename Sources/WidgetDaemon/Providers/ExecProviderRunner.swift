import Foundation
import Synchronization
import WidgetDescriptorFiles

/// Runs providers as child processes. Each runs in its own process group, so a time-out or
/// a too-long answer kills everything it started. The blocking I/O happens on a launch
/// thread (`LaunchThreads`), never on the event loop.
public final class ExecProviderRunner: ProviderRunning {
    private let threads: LaunchThreads
    private let live = Mutex<Set<pid_t>>([])
    /// Looks programs up as `posix_spawnp` does, on the daemon's PATH.
    private let programs = SystemPrograms()

    public init(maxConcurrent: Int) {
        threads = LaunchThreads(limit: maxConcurrent, name: "widgetd-launch")
    }

    public var running: Int {
        live.withLock { $0.count }
    }

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
        for pid in live.withLock({ $0 }) {
            kill(-pid, SIGKILL)
        }
    }

    private func runBlocking(_ invocation: ProviderInvocation) -> Result<Data, ProviderFailure> {
        // Checked again right before it runs (it was when its descriptor was read): a program
        // made writable by others since then must not run as the daemon's user.
        if let problem = programs.problem(running: invocation.exec[0], owner: invocation.owner) {
            return .failure(.spawnFailed(problem))
        }
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(argv: invocation.exec + [invocation.verb])
        } catch {
            return .failure(error)
        }
        live.withLock { _ = $0.insert(child.pid) }
        defer {
            live.withLock { _ = $0.remove(child.pid) }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(invocation.timeout * 1000))
        let io = child.exchange(
            input: invocation.request, maxOutput: invocation.maxAnswerBytes, deadline: deadline)
        switch io {
        case .timedOut:
            kill(-child.pid, SIGKILL)
            _ = child.wait(until: nil)
            return .failure(.timedOut(invocation.timeout))
        case .outputTooLarge:
            kill(-child.pid, SIGKILL)
            _ = child.wait(until: nil)
            return .failure(.answerTooLarge(invocation.maxAnswerBytes))
        case .finished(let output, let errorOutput):
            guard let status = child.wait(until: deadline) else {
                kill(-child.pid, SIGKILL)
                _ = child.wait(until: nil)
                return .failure(.timedOut(invocation.timeout))
            }
            let stderr = String(decoding: errorOutput, as: UTF8.self)
            switch status {
            case .exited(0): return .success(output)
            case .exited(let code): return .failure(.exited(code, stderr: stderr))
            case .signaled(let signal): return .failure(.signaled(signal, stderr: stderr))
            }
        }
    }
}
