import Synchronization

/// Wakes the scheduler loop early when the schedule changes. A ring while nobody waits is
/// remembered, so a change between two waits is never missed.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.rung = true
            return nil
        }
        waiter?.resume()
    }

    /// Consumes a ring nobody has waited for yet; tells a test whether a change rang.
    func takeRing() -> Bool {
        state.withLock { state in
            defer { state.rung = false }
            return state.rung
        }
    }

    /// Returns on a ring, after `timeout`, or on cancellation, whichever comes first.
    func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForRing() }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForRing() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.rung || Task.isCancelled {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            // Releases the waiter without recording a ring, so a real ring is never consumed.
            let waiter = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
