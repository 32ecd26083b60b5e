import NIOCore

/// Batches waiting to work their next slice, on the engine's loop.
///
/// NIO runs every task that is ready before it polls its sockets again, so a batch that
/// queued its next slice with `execute` would keep every other connection waiting until it
/// ended. One timer set a moment ahead lets the loop poll first (reads, writes, the requests
/// of other connections); then each waiting batch works one slice, in the order they queued.
/// The timer for the next round is set when a round ends, not as its slices queue again: set
/// earlier, it would be due before the round is over and the loop would never poll. Nothing
/// is armed while no batch waits.
final class SliceQueue: @unchecked Sendable {
    // Used on `loop` only.
    private let loop: any EventLoop
    private var waiting: [@Sendable () -> Void] = []
    private var armed = false
    private var inRound = false

    /// Long enough for the loop to find no task ready and poll; short beside a slice.
    static let pause: TimeAmount = .microseconds(100)

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ slice: @escaping @Sendable () -> Void) {
        loop.preconditionInEventLoop()
        waiting.append(slice)
        guard !armed, !inRound else { return }
        arm()
    }

    private func arm() {
        armed = true
        loop.scheduleTask(in: Self.pause) { self.runRound() }
    }

    private func runRound() {
        armed = false
        inRound = true
        let round = waiting
        waiting.removeAll()
        for slice in round { slice() }
        inRound = false
        if !waiting.isEmpty { arm() }
    }
}
