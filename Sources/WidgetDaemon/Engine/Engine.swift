import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetDescriptorFiles
import WidgetProtocol
import WidgetStore

/// The daemon's one actor, run on the event loop that also serves the control connections,
/// so a request reaches it without a hop. It does one thing: validate a request, plan the
/// change with the pure `DaemonState`, commit the plan to the store, apply it, publish what
/// happened, and answer. Everything the daemon knows is in `state`; the other fields are
/// the machinery around it, one struct per concern.
public actor Engine {
    /// The fixed machinery around the state: loop, store, runner, logger, subscribers.
    nonisolated let io: EngineIO
    var state: DaemonState
    /// Who may do what (root, the daemon's uid, the host group); owners are in the descriptors.
    var access: AccessPolicy
    var commits = Commits()
    var launches = LaunchState()
    var time: TimeState
    var catalog: CatalogState

    /// The loop everything runs on: this actor's executor, the connections, the timer.
    public nonisolated var loop: any EventLoop { io.loop }
    /// Entry changes, reloads, rotations and stack changes, for subscribers.
    public nonisolated var events: EventHub { io.events }
    /// Open control connections against the connection keys of `[limits]` (the socket server
    /// admits through it, and its connections read their bounds from it).
    public nonisolated var connections: ConnectionGate { io.connections }
    /// STATUS= for systemd, paced and sent off the loop.
    public nonisolated var statusReporter: StatusReporter { io.statusReporter }
    /// The daemon's own uid: its callers, like root's, need no access decision.
    public nonisolated var daemonUID: UInt32 { io.daemonUID }

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.executor.asUnownedSerialExecutor()
    }

    public init(
        loop: any EventLoop, store: any StateStore, runner: any ProviderRunning, settings: DaemonSettings,
        catalog: DescriptorCatalog, setup: EngineSetup, virtualStart: Date?, logger: Logger,
        statusReporter: StatusReporter = .silent, accessPolicy: AccessPolicy? = nil
    ) {
        let access = accessPolicy ?? AccessPolicy(daemonUID: geteuid())
        self.access = access
        io = EngineIO(
            loop: loop, store: store, runner: runner, logger: logger, setup: setup, events: EventHub(),
            connections: ConnectionGate(limits: .init(settings.limits)), statusReporter: statusReporter,
            slices: SliceQueue(loop: loop), daemonUID: access.daemonUID)
        // On the virtual clock ids follow from the start instant, so a script gets the same
        // ids every run (same input, same result).
        let seed = virtualStart.map { UInt64(bitPattern: Int64($0.timeIntervalSince1970 * 1000)) }
        state = DaemonState(descriptors: catalog.descriptors, settings: settings, calendar: .current, idSeed: seed)
        time = TimeState(clock: EngineClock(virtualNow: virtualStart, wallClock: setup.wallClock, bootClock: setup.bootClock))
        self.catalog = CatalogState(problems: catalog.problems)
    }

    /// The daemon's clock: virtual when started with `--clock virtual:`, the wall clock otherwise.
    var now: Date { time.now }
    public var isVirtual: Bool { time.clock.isVirtual }
}
