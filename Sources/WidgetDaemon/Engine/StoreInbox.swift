import Synchronization

/// Commit outcomes on their way from the store's thread to the engine's loop. A group commit
/// completes many plans at once; they go over in one hop of the loop, not one each.
final class StoreInbox: Sendable {
    private struct State {
        var outcomes: [(ticket: UInt64, result: Result<Void, any Error>)] = []
        var scheduled = false
    }

    private let state = Mutex(State())

    /// Adds an outcome; true when the caller must schedule a `take` on the loop (none is yet).
    func put(_ ticket: UInt64, _ result: Result<Void, any Error>) -> Bool {
        state.withLock { state in
            state.outcomes.append((ticket, result))
            defer { state.scheduled = true }
            return !state.scheduled
        }
    }

    /// Every outcome so far, in the order the store gave them.
    func take() -> [(ticket: UInt64, result: Result<Void, any Error>)] {
        state.withLock { state in
            state.scheduled = false
            defer { state.outcomes.removeAll(keepingCapacity: true) }
            return state.outcomes
        }
    }
}
