import CSystemd
import Foundation
import Glibc
import Logging
import Synchronization
import WidgetCore

/// The watchers of the session's services (logind, UPower, power-profiles-daemon, BlueZ,
/// GeoClue2) on the system bus, where all of them live, for the system service and a user's
/// alike: one connection on a thread of its own that makes every sd-bus call and sleeps in
/// ppoll (`BusPoll`), so nothing here is polled and an idle session wakes nothing. It is a
/// connection apart from `DBusEndpoint`'s: a user's service serves `WidgetCenter1` on the
/// session bus, and on the system bus a service flooding signals must not hold up the calls
/// `WidgetCenter1` answers.
///
/// Signals are read here, turned into `SessionEvent`s and folded by `SessionTracker`; the
/// readings that changed go to `deliver`. A service's name is followed (`NameOwnerChanged`):
/// one that is missing gives unknown readings and `.source(x, available: false)`, one that
/// comes later or restarts is read afresh.
///
/// logind's `PrepareForSleep` goes to `sleep`; a delay inhibitor is held while logind runs,
/// released once the engine says its commits are synced (`post(.releaseInhibitor)`), and
/// taken again at resume.
final class SessionWatchers: @unchecked Sendable {
    enum Work: Sendable {
        case releaseInhibitor
        /// Whether a location clue is in use (GeoClue's client runs only then).
        case locationWanted(Bool)
        case stop
    }

    /// Messages handled in one round before the thread looks at its work again: a service
    /// that floods the bus cannot keep the thread from stopping or from releasing the inhibitor.
    static let maxMessagesPerRound = 256
    /// How long a call to a service may take (µs): a service that hangs costs its own reading,
    /// and the readings wait, never the control socket (another thread).
    static let callTimeout: UInt64 = 5_000_000

    let logger: Logger
    let deliver: @Sendable ([ContextReading]) -> Void
    /// logind's `PrepareForSleep`; when `starting`, `ready` is called once the commits are synced.
    let sleepSignal: @Sendable (_ starting: Bool, _ ready: @escaping @Sendable () -> Void) -> Void
    private let thread: BusThread<Work>

    // On the thread only (hence @unchecked Sendable).
    var bus: OpaquePointer?
    var tracker: SessionTracker
    /// Signals read by sd-bus's callback, handled once `sd_bus_process` returns (calls are made
    /// then, never from inside the callback).
    var inbox: [SessionSignal] = []
    var inhibitor: Int32 = -1
    /// Between `PrepareForSleep(true)` and `(false)`: a release the engine asks for after the
    /// resume (logind stopped waiting) would leave widgetd without an inhibitor.
    var preparingForSleep = false
    var locationWanted = false
    /// GeoClue's client object, while started.
    var geoclueClient: String?
    private var connectedOnce = false
    /// A bus missing at start is not tried again (`failed`).
    private var retry = BusRetry(at: .max)

    init(
        scope: SessionScope, maxTrackedObjects: Int, logger: Logger, deliver: @escaping @Sendable ([ContextReading]) -> Void,
        sleep: @escaping @Sendable (_ starting: Bool, _ ready: @escaping @Sendable () -> Void) -> Void
    ) throws {
        tracker = SessionTracker(scope: scope, maxTrackedObjects: maxTrackedObjects)
        self.logger = logger
        self.deliver = deliver
        sleepSignal = sleep
        thread = try BusThread()
    }

    func start() {
        thread.start(name: "widgetd-session") { [self] in run() }
    }

    /// Hands the thread something to do, from any thread.
    func post(_ item: Work) {
        thread.post(item)
    }

    /// Closes the connection (which releases the inhibitor and GeoClue's client) and waits for
    /// the thread. Blocks: never on the event loop.
    func stop() {
        post(.stop)
        thread.join()
    }

    // MARK: The thread

    private func run() {
        // Every source unknown until the bus says otherwise.
        deliver(tracker.apply([]))
        connect()
        while true {
            if drainWork() { break }
            if bus == nil, retry.isDue { connect() }
            var more = false
            if let bus {
                var handled = 0
                while handled < Self.maxMessagesPerRound {
                    let processed = sd_bus_process(bus, nil)
                    if processed < 0 {
                        lost(processed)
                        break
                    }
                    handleInbox()
                    if processed == 0 { break }
                    handled += 1
                }
                more = handled == Self.maxMessagesPerRound
            }
            if !more { BusPoll.wait(bus: bus, wakeFD: thread.wakeFD, deadline: bus == nil ? retry.at : .max) }
        }
        // Stopping: the engine is told nothing more.
        disconnect(reporting: false)
    }

    /// Handles what was posted; true once asked to stop.
    private func drainWork() -> Bool {
        for item in thread.take() {
            switch item {
            case .stop:
                return true
            case .releaseInhibitor:
                if preparingForSleep { releaseInhibitor() }
            case .locationWanted(let wanted):
                guard wanted != locationWanted else { continue }
                locationWanted = wanted
                if wanted { startLocation() } else { stopLocation() }
            }
        }
        return false
    }

    /// Readings that changed go to the engine.
    func apply(_ events: [SessionEvent]) {
        let readings = tracker.apply(events)
        if !readings.isEmpty { deliver(readings) }
    }

    // MARK: Connection

    private func connect() {
        var opened: OpaquePointer?
        var result = sd_bus_open_system(&opened)
        if result >= 0, let opened {
            for rule in SessionNames.matchRules {
                result = sd_bus_add_match(opened, nil, rule, sessionSignalCallback, Unmanaged.passUnretained(self).toOpaque())
                if result < 0 { break }
            }
        }
        guard result >= 0, let opened else {
            if let opened { sd_bus_flush_close_unref(opened) }
            return failed(result)
        }
        bus = opened
        retry.connected()
        logger.info(connectedOnce ? "system bus back: reading the session again" : "reading the session from the system bus")
        connectedOnce = true
        for source in ContextSource.allCases where nameHasOwner(SessionNames.busName(source)) {
            appeared(source)
        }
    }

    /// A bus missing at start is not looked for again (a system bus comes up before widgetd);
    /// one that goes away later is, on a backoff, as `DBusEndpoint` does.
    private func failed(_ result: Int32) {
        let error = String(cString: strerror(-result))
        guard connectedOnce else {
            logger.warning("no system bus: the session's context is unknown", metadata: ["error": "\(error)"])
            return
        }
        logger.warning("cannot reach the system bus again", metadata: ["error": "\(error)", "retry_in_seconds": "\(Int(retry.delay))"])
        retry.schedule()
    }

    private func lost(_ result: Int32) {
        logger.warning("system bus lost: the session's context is unknown until it is back", metadata: [
            "error": "\(String(cString: strerror(-result)))", "retry_in_seconds": "\(Int(retry.delay))",
        ])
        disconnect()
        retry.schedule()
    }

    /// Drops the connection; every source is then missing (`reporting`: the engine is told).
    private func disconnect(reporting: Bool = true) {
        closeInhibitor()
        geoclueClient = nil
        inbox = []
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
        let events = ContextSource.allCases.map { SessionEvent.vanished($0) }
        if reporting { apply(events) } else { _ = tracker.apply(events) }
    }
}

/// sd-bus's callback for the match rules: the signal is read and queued for the thread.
private let sessionSignalCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let watchers = Unmanaged<SessionWatchers>.fromOpaque(userdata).takeUnretainedValue()
    func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
    guard let args = try? DBusMessageCoding.readAll(message) else { return 0 }
    watchers.inbox.append(SessionSignal(
        path: text(sd_bus_message_get_path(message)), interface: text(sd_bus_message_get_interface(message)),
        member: text(sd_bus_message_get_member(message)), args: args))
    return 0
}
