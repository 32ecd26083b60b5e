import WidgetCore
import WidgetProtocol

extension Engine {
    /// Serialises the requests that change one instance (`configure`, `remove`, `push`): each
    /// awaits the store (and `configure` the provider), and without this a `configure` could
    /// merge into a snapshot that a concurrent request has already replaced or removed.
    func withInstanceLock<T>(_ id: InstanceID, _ body: () async throws(RPCError) -> T) async throws(RPCError) -> T {
        if instanceLocks[id] != nil {
            await withCheckedContinuation { instanceLocks[id, default: []].append($0) }
        } else {
            instanceLocks[id] = []
        }
        defer {
            if var waiters = instanceLocks[id], !waiters.isEmpty {
                // The lock passes straight to the next waiter.
                let next = waiters.removeFirst()
                instanceLocks[id] = waiters
                next.resume()
            } else {
                instanceLocks[id] = nil
            }
        }
        return try await body()
    }
}
