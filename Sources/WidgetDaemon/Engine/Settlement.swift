/// The work a step started and its answer waits for, on the virtual clock: the launches it
/// made due and the plans they lead to. The virtual clock stands still while a request is
/// handled, so everything the request made due now happens before it is answered, and the
/// next request of a script always finds the same state, however busy the machine is.
final class Settlement {
    private var pending = 0
    private var waiters: [() -> Void] = []

    func begin() {
        pending += 1
    }

    func end() {
        pending -= 1
        guard pending == 0 else { return }
        let ready = waiters
        waiters = []
        for waiter in ready { waiter() }
    }

    /// Runs `body` once nothing is pending (at once when nothing is).
    func whenSettled(_ body: @escaping () -> Void) {
        if pending == 0 { body() } else { waiters.append(body) }
    }
}
