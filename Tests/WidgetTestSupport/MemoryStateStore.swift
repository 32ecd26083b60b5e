import Foundation
import Synchronization
import WidgetCore
import WidgetStore
@testable import WidgetDaemon

/// A store in memory that can be told to fail, to check that a failed commit changes nothing,
/// or to hold its writes, as a slow sync would, so a test can order requests. Submissions
/// complete in order, as the real store's do.
final class MemoryStateStore: StateStore {
    private struct State {
        var applied: [[StoreChange]] = []
        var failWrites = false
        var paused = false
        var parked: [([StoreChange], @Sendable (Result<Void, any Error>) -> Void)] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "memory-store")

    func load() async throws -> PersistedState { PersistedState() }

    func submit(_ changes: [StoreChange], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        queue.async {
            let parked = self.state.withLock { state -> Bool in
                guard state.paused else { return false }
                state.parked.append((changes, completion))
                return true
            }
            if !parked { completion(self.write(changes)) }
        }
    }

    private func write(_ changes: [StoreChange]) -> Result<Void, any Error> {
        state.withLock { state in
            if state.failWrites { return .failure(StoreError("disk full (simulated)")) }
            state.applied.append(changes)
            return .success(())
        }
    }

    var applied: [[StoreChange]] { state.withLock { $0.applied } }
    var parkedWrites: Int { state.withLock { $0.parked.count } }

    func setFailWrites(_ fail: Bool) { state.withLock { $0.failWrites = fail } }

    func pauseWrites() { state.withLock { $0.paused = true } }

    func resumeWrites() {
        queue.async {
            let parked = self.state.withLock { state in
                state.paused = false
                defer { state.parked = [] }
                return state.parked
            }
            for (changes, completion) in parked { completion(self.write(changes)) }
        }
    }

    func decisions(stack: String?, since: Date?, limit: Int) async throws -> [RotationDecision] {
        let all = applied.joined().compactMap { change -> RotationDecision? in
            if case .appendDecision(let decision) = change { return decision }
            return nil
        }
        let matching = all.filter { (stack == nil || $0.stack == stack) && (since == nil || $0.date >= since!) }
        return Array(matching.suffix(limit))
    }
}
