import CSystemd
import Foundation
import Glibc
import Logging
import Synchronization
import WidgetCore

/// widgetd's connection to a bus, on a thread of its own that makes every sd-bus call: it
/// owns `org.widgetd.WidgetCenter1`, answers the object's calls, and sends signals. It sleeps
/// in ppoll on the bus connection (the events and time-out sd-bus asks for) and on an eventfd
/// through which the engine hands it answers and signals, so an idle daemon is not woken for
/// D-Bus at all.
///
/// A call is read here, handed to the engine as the JSON-RPC request it stands for (`serve`),
/// and its message is kept referenced until the answer comes back and is replied to here.
///
/// When the bus cannot be reached, or goes away, widgetd logs it, keeps serving its socket, and
/// tries again on a backoff (`BusRetry`).
final class DBusEndpoint: @unchecked Sendable {
    /// What the thread is handed.
    enum Work: Sendable {
        /// The engine's answer line to the call `token` (nil: none).
        case answer(token: Int, line: [UInt8]?)
        case signals([DBusSignal])
        case stop
    }

    /// Serves a request line for `caller` on the engine and calls `answered` with its answer,
    /// from any thread.
    typealias Serve = @Sendable (
        _ line: [UInt8], _ caller: PeerCredentials, _ answered: @escaping @Sendable ([UInt8]?) -> Void
    ) -> Void

    let kind: DBusBusKind
    let serve: Serve
    /// `max-dbus-calls-per-uid`, read at start.
    let maxCallsPerUID: Int
    private let logger: Logger
    private let thread: BusThread<Work>

    // On the bus thread only (hence @unchecked Sendable).
    private var bus: OpaquePointer?
    /// Calls handed to the engine, by the id of their request, with their messages referenced.
    var pending: [Int: (message: OpaquePointer, call: DBusCall, uid: uid_t)] = [:]
    /// How many of `pending` each uid has.
    var pendingByUID: [uid_t: Int] = [:]
    var nextToken = 1
    /// The first connection is tried at once.
    private var retry = BusRetry(at: 0)
    private var connectedOnce = false

    init(kind: DBusBusKind, maxCallsPerUID: Int, logger: Logger, serve: @escaping Serve) throws {
        self.kind = kind
        self.maxCallsPerUID = maxCallsPerUID
        self.logger = logger
        self.serve = serve
        thread = try BusThread()
    }

    /// Starts the bus thread, which connects at once.
    func start() {
        thread.start(name: "widgetd-dbus") { [self] in run() }
    }

    /// Hands the thread something to do, from any thread.
    func post(_ item: Work) {
        thread.post(item)
    }

    /// Closes the connection (calls not answered yet get no reply) and waits for the thread to
    /// end. Blocks: never call it on the event loop.
    func stop() {
        post(.stop)
        thread.join()
    }

    // MARK: The thread

    private func run() {
        var stopping = false
        while !stopping {
            stopping = drainWork()
            if stopping { break }
            if bus == nil, retry.isDue { connect() }
            if let bus {
                while true {
                    let processed = sd_bus_process(bus, nil)
                    if processed < 0 {
                        lost(processed)
                        break
                    }
                    if processed == 0 { break }
                }
            }
            sleep()
        }
        disconnect()
    }

    /// Handles what was posted; true once asked to stop.
    private func drainWork() -> Bool {
        for item in thread.take() {
            switch item {
            case .stop:
                return true
            case .answer(let token, let line):
                guard let (message, call, uid) = pending.removeValue(forKey: token) else { continue }
                answered(uid)
                reply(call.reply(to: line), to: message)
                sd_bus_message_unref(message)
            case .signals(let signals):
                guard let bus else { continue }
                for signal in signals { emit(signal, on: bus) }
            }
        }
        return false
    }

    /// Blocks until the bus or the eventfd is ready, or until sd-bus's or the retry's time-out.
    private func sleep() {
        BusPoll.wait(bus: bus, wakeFD: thread.wakeFD, deadline: bus == nil ? retry.at : .max)
    }

    // MARK: Connection

    private func connect() {
        var opened: OpaquePointer?
        var result = kind == .system ? sd_bus_open_system(&opened) : sd_bus_open_user(&opened)
        guard result >= 0, let opened else { return failed("cannot connect to the \(kind.rawValue) bus", result) }
        result = sd_bus_add_object(opened, nil, DBusNames.objectPath, dbusObjectCallback, Unmanaged.passUnretained(self).toOpaque())
        // Queued behind a previous widgetd that still owns the name: the bus hands it over when
        // that one goes.
        if result >= 0 { result = sd_bus_request_name(opened, DBusNames.busName, UInt64(SD_BUS_NAME_QUEUE)) }
        guard result >= 0 else {
            sd_bus_flush_close_unref(opened)
            return failed("cannot own \(DBusNames.busName) on the \(kind.rawValue) bus", result)
        }
        bus = opened
        retry.connected()
        logger.info(
            connectedOnce ? "D-Bus connection back" : "serving D-Bus",
            metadata: ["bus": "\(kind.rawValue)", "name": "\(DBusNames.busName)", "owner": "\(result > 0 ? "yes" : "queued")"])
        connectedOnce = true
    }

    private func failed(_ what: String, _ result: Int32) {
        logger.warning(
            "\(what); serving the socket only, trying again later",
            metadata: ["error": "\(String(cString: strerror(-result)))", "retry_in_seconds": "\(Int(retry.delay))"])
        retry.schedule()
    }

    private func lost(_ result: Int32) {
        logger.warning(
            "D-Bus connection lost; serving the socket only, trying again later",
            metadata: ["bus": "\(kind.rawValue)", "error": "\(String(cString: strerror(-result)))", "retry_in_seconds": "\(Int(retry.delay))"])
        disconnect()
        retry.schedule()
    }

    /// Drops the connection and the calls waiting on it (their callers get the bus's error).
    private func disconnect() {
        for (_, entry) in pending { sd_bus_message_unref(entry.message) }
        pending.removeAll()
        pendingByUID.removeAll()
        if let bus { sd_bus_flush_close_unref(bus) }
        bus = nil
    }
}

/// sd-bus's callback for the object: back to the endpoint it was registered by.
private let dbusObjectCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    return Unmanaged<DBusEndpoint>.fromOpaque(userdata).takeUnretainedValue().handle(message) ? 1 : 0
}
