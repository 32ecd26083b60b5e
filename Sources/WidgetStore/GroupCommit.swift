import Synchronization

/// Group commit: submissions that arrive while a transaction is being written wait and are
/// then written together, in one transaction and one fsync. Each keeps its own all-or-nothing
/// promise through a savepoint, and each completion runs only after the transaction holding
/// its changes has committed (or with the error that undid them), in submission order.
///
/// Why: with `synchronous = FULL` every commit syncs the WAL, and that sync, not SQLite's
/// work, bounds how many durable requests per second the daemon can answer. Fifty
/// connections donating at once now share one sync instead of queueing for fifty.
final class GroupCommit<Work: Sendable>: Sendable {
    typealias Outcome = Result<Void, any Error>
    /// Writes one group: the work items in order, one outcome each, inside one transaction.
    /// Throws when the transaction as a whole could not commit.
    typealias Writer = @Sendable ([Work]) throws -> [Outcome]

    typealias Completion = @Sendable (Outcome) -> Void

    private struct Waiting: Sendable {
        var work: Work
        var completion: Completion
    }

    private struct State: Sendable {
        var waiting: [Waiting] = []
        var writing = false
        /// Submissions wait, unwritten, until `release()`.
        var held: Bool
    }

    private let state: Mutex<State>
    private let writer: Writer
    /// Writes block on SQLite and fsync, so they run here rather than on the event loop.
    private let thread = WorkerThread(name: "widgetd-commit")

    /// `held`: nothing is written until `release()` (the file is not open for writing yet).
    init(held: Bool = false, writer: @escaping Writer) {
        self.writer = writer
        state = Mutex(State(held: held))
    }

    /// Writes what was submitted while held, and from now on writes as submitted.
    func release() {
        let start = state.withLock { state -> Bool in
            state.held = false
            guard !state.waiting.isEmpty, !state.writing else { return false }
            state.writing = true
            return true
        }
        if start { thread.async { self.drain() } }
    }

    func submit(_ work: Work, completion: @escaping Completion) {
        submit([(work, completion)])
    }

    /// Several submissions that join the same group (unless a group is being written, which
    /// they then follow together).
    func submit(_ items: [(work: Work, completion: Completion)]) {
        guard !items.isEmpty else { return }
        let start = state.withLock { state -> Bool in
            state.waiting.append(contentsOf: items.map { Waiting(work: $0.work, completion: $0.completion) })
            guard !state.writing, !state.held else { return false }
            state.writing = true
            return true
        }
        if start { thread.async { self.drain() } }
    }

    func submit(_ work: Work) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            submit(work) { continuation.resume(with: $0) }
        }
    }

    /// Waits until every submission so far has been written.
    func waitUntilWritten() {
        thread.waitUntilIdle()
        while state.withLock({ $0.writing }) { thread.waitUntilIdle() }
    }

    /// Writes groups until nobody is waiting. Whoever arrives during a write joins the next group.
    private func drain() {
        while true {
            let group = state.withLock { state -> [Waiting] in
                let group = state.waiting
                state.waiting.removeAll(keepingCapacity: true)
                if group.isEmpty { state.writing = false }
                return group
            }
            guard !group.isEmpty else { return }
            do {
                let outcomes = try writer(group.map(\.work))
                for (waiting, outcome) in zip(group, outcomes) { waiting.completion(outcome) }
            } catch {
                for waiting in group { waiting.completion(.failure(error)) }
            }
        }
    }
}
