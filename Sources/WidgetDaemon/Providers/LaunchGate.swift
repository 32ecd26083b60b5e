/// Caps how many providers run at once; launches beyond the cap wait in order.
actor LaunchGate {
    private var limit: Int
    private var active = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var running: Int { active }

    /// A new cap (SIGHUP); waiters start at once if the cap grew.
    func setLimit(_ newLimit: Int) {
        limit = max(1, newLimit)
        while active < limit, !waiters.isEmpty {
            active += 1
            waiters.removeFirst().resume()
        }
    }

    func acquire() async {
        if active < limit {
            active += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            active -= 1
        } else {
            // The slot passes straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }
}
