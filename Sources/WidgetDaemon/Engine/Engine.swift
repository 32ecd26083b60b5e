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
/// the machinery around it.
public actor Engine {
    /// The loop everything runs on: this actor's executor, the connections, the timer.
    public nonisolated let loop: any EventLoop
    nonisolated let store: any StateStore
    nonisolated let runner: any ProviderRunning
    nonisolated let logger: Logger
    nonisolated let setup: EngineSetup
    /// Entry changes, reloads, rotations and stack changes, for subscribers.
    public nonisolated let events: EventHub
    /// Open control connections against the connection keys of `[limits]` (the socket server
    /// admits through it, and its connections read their bounds from it).
    public nonisolated let connections: ConnectionGate
    /// STATUS= for systemd, paced and sent off the loop.
    public nonisolated let statusReporter: StatusReporter
    /// Commit outcomes on their way to the loop.
    nonisolated let inbox = StoreInbox()
    /// Batches waiting for their next slice (`BatchRun`).
    nonisolated let slices: SliceQueue
    /// The daemon's own uid: its callers, like root's, need no access decision.
    public nonisolated let daemonUID: UInt32
    /// Where the widgets directories are read: a thread of its own, off the loop, one read at
    /// a time and in the order asked (a large directory must not hold up requests).
    nonisolated let descriptorReader = LaunchThreads(limit: 1, name: "widgetd-read")

    var state: DaemonState
    /// Who may do what (root, the daemon's uid, the host group); owners are in the descriptors.
    var access: AccessPolicy
    /// Plans being stored, and requests waiting for one of them.
    var flight = Flight()
    /// Provider launches running.
    var launches = LaunchBook()
    var clock: EngineClock
    /// The last failed write, while writes fail.
    var storageFault: StorageFault?
    /// Stored rows left out because they do not decode: at start-up, and log rows since.
    var rowsLeftOut = 0
    /// The timer, the STATUS= summary, and the step in progress.
    var wake = WakeState()
    /// Dynamic options fetched without search text, until invalidated.
    var options = OptionsCache()
    /// Descriptor files that were skipped, with why (for `widgets` and `status`).
    var catalogProblems: [DescriptorProblem]
    /// Whether `WidgetsDirectoryWatcher` runs (a new descriptor is then picked up at once).
    var widgetsWatched = false
    /// The read of the widgets directories running, and the asks waiting for the next.
    var descriptorReads = DescriptorReads()
    var stopping = false

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.executor.asUnownedSerialExecutor()
    }

    public init(
        loop: any EventLoop, store: any StateStore, runner: any ProviderRunning, settings: DaemonSettings,
        catalog: DescriptorCatalog, setup: EngineSetup, virtualStart: Date?, logger: Logger,
        statusReporter: StatusReporter = .silent, accessPolicy: AccessPolicy? = nil
    ) {
        self.loop = loop
        self.store = store
        self.runner = runner
        self.logger = logger
        self.setup = setup
        self.events = EventHub()
        self.connections = ConnectionGate(limits: .init(settings.limits))
        self.statusReporter = statusReporter
        self.slices = SliceQueue(loop: loop)
        access = accessPolicy ?? AccessPolicy(daemonUID: geteuid())
        daemonUID = access.daemonUID
        // On the virtual clock ids follow from the start instant, so a script gets the same
        // ids every run (same input, same result).
        let seed = virtualStart.map { UInt64(bitPattern: Int64($0.timeIntervalSince1970 * 1000)) }
        state = DaemonState(descriptors: catalog.descriptors, settings: settings, calendar: .current, idSeed: seed)
        clock = EngineClock(virtualNow: virtualStart, wallClock: setup.wallClock, bootClock: setup.bootClock)
        catalogProblems = catalog.problems
    }

    /// The daemon's clock: virtual when started with `--clock virtual:`, the wall clock otherwise.
    var now: Date { clock.now }
    public var isVirtual: Bool { clock.isVirtual }
}

/// Where the engine's files are, how it reads the wall clock and CLOCK_BOOTTIME, and where it
/// arms its wake-up timer. A test injects all three clocks to suspend the engine without
/// sleeping: wall and boot time move on while the monotonic timer does not fire.
public struct EngineSetup: Sendable {
    /// Arms a timer that calls `fire` on `loop` after `delay` on the monotonic clock (which
    /// stops during suspend); the closure it returns cancels it.
    public typealias ArmTimer = @Sendable (_ loop: any EventLoop, _ delay: TimeAmount, _ fire: @escaping @Sendable () -> Void)
        -> @Sendable () -> Void

    public var widgetsDirectories: [String]
    public var stateDirectory: String
    public var wallClock: @Sendable () -> Date
    /// CLOCK_BOOTTIME in seconds: it counts suspend and is never set (`EngineClock.wallStep`).
    public var bootClock: @Sendable () -> Double
    public var armTimer: ArmTimer

    public init(
        widgetsDirectories: [String], stateDirectory: String, wallClock: @escaping @Sendable () -> Date = { Date() },
        bootClock: @escaping @Sendable () -> Double = EngineClock.bootTime, armTimer: @escaping ArmTimer = EngineSetup.loopTimer
    ) {
        self.widgetsDirectories = widgetsDirectories
        self.stateDirectory = stateDirectory
        self.wallClock = wallClock
        self.bootClock = bootClock
        self.armTimer = armTimer
    }

    /// The event loop's own timer.
    public static let loopTimer: ArmTimer = { loop, delay, fire in
        let task = loop.scheduleTask(in: delay, fire)
        return { task.cancel() }
    }
}
