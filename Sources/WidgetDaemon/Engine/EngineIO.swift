import Logging
import NIOCore
import WidgetStore

/// The fixed machinery around the engine's state: made once at start-up, never changed, and
/// safe to read from any thread (so the engine holds it `nonisolated`).
struct EngineIO: Sendable {
    /// The loop everything runs on: the engine's executor, the connections, the timer.
    let loop: any EventLoop
    let store: any StateStore
    let runner: any ProviderRunning
    let logger: Logger
    let setup: EngineSetup
    /// Entry changes, reloads, rotations and stack changes, for subscribers.
    let events: EventHub
    /// Open control connections against the connection keys of `[limits]` (the socket server
    /// admits through it, and its connections read their bounds from it).
    let connections: ConnectionGate
    /// STATUS= for systemd, paced and sent off the loop.
    let statusReporter: StatusReporter
    /// Commit outcomes on their way to the loop.
    let inbox = StoreInbox()
    /// Batches waiting for their next slice (`BatchRun`).
    let slices: SliceQueue
    /// The daemon's own uid: its callers, like root's, need no access decision.
    let daemonUID: UInt32
    /// Where the widgets directories are read: a thread of its own, off the loop, one read at
    /// a time and in the order asked (a large directory must not hold up requests).
    let descriptorReader = LaunchThreads(limit: 1, name: "widgetd-read")
}
