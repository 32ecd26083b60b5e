import CMosquitto
import Foundation
import Glibc
import Logging
import Synchronization
import WidgetCore
import WidgetProtocol

/// One MQTT client session with libmosquitto: persistent (clean session off, fixed client id),
/// subscribed with QoS 1, its network loop on a thread of its own, reconnecting with backoff.
/// That thread sleeps until the socket is readable or the keepalive is due, so the keepalive
/// ping is the only periodic wake-up.
///
/// Acknowledgement: `handler` runs on the network thread for each message and blocks it until
/// the update is committed. libmosquitto 2.0 has no manual acknowledgement: it queues a QoS 1
/// message's PUBACK before calling the handler, but in threaded mode only the network thread
/// writes queued packets, so the PUBACK leaves after the handler returns. A handler
/// that answers `.redeliver` gets the socket shut instead: the queued PUBACK is never sent
/// (libmosquitto drops queued packets when it reconnects), and the broker delivers the
/// message again on the resumed session.
final class MosquittoSession: @unchecked Sendable {
    enum Verdict: Sendable {
        /// Committed, or refused for good: let the PUBACK go.
        case acknowledge
        /// Not applied (the store failed, the daemon is stopping): have the broker send it again.
        case redeliver
    }

    typealias Handler = @Sendable (_ topic: String, _ payload: [UInt8]) -> Verdict

    // Set once in init; libmosquitto serializes the callbacks that read them.
    private let handle: OpaquePointer
    private let subscriptions: [String]
    private let handler: Handler
    /// Called on the network thread once each connection's subscriptions are asked for.
    private let onConnect: @Sendable () -> Void
    private let logger: Logger
    private let isUp = Mutex(false)
    private let lifecycle = Mutex(Lifecycle.connecting)
    /// Seconds to wait before having the broker send a message again.
    private let redeliveryPause = Mutex(1.0)
    /// Ends a wait between connection attempts (or before a redelivery) early, at stop.
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Subscriptions waiting for their SUBACK, by message id.
    private let pending = Mutex<[Int32: String]>([:])

    private enum Lifecycle {
        case connecting, connected, stopping
    }

    private static let libraryReady: Bool = {
        mosquitto_lib_init()
        return true
    }()

    init(
        settings: RemoteSettings, hostname: String, handler: @escaping Handler, connected: @escaping @Sendable () -> Void = {},
        logger: Logger
    ) throws {
        _ = Self.libraryReady
        subscriptions = RemoteTopics(prefix: settings.topicPrefix).subscriptions
        self.handler = handler
        self.onConnect = connected
        self.logger = logger
        guard let handle = mosquitto_new(settings.clientID(hostname: hostname), false, nil) else {
            throw ServerError("[remote]: cannot create an MQTT client (\(String(cString: strerror(errno))))")
        }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        try check(mosquitto_reconnect_delay_set(handle, 1, 60, true), "reconnect delay")
        if let username = settings.username {
            let password = try settings.passwordFile.map(Self.readPassword)
            try check(mosquitto_username_pw_set(handle, username, password), "username")
        }
        if let caFile = settings.caFile {
            try check(mosquitto_tls_set(handle, caFile, nil, settings.certFile, settings.keyFile, nil), "TLS files")
        }
        mosquitto_connect_callback_set(handle) { _, context, code in
            MosquittoSession.from(context)?.didConnect(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, code in
            MosquittoSession.from(context)?.didDisconnect(code)
        }
        mosquitto_subscribe_callback_set(handle) { _, context, mid, count, granted in
            MosquittoSession.from(context)?.didSubscribe(mid, granted: count > 0 ? granted?.pointee : nil)
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let session = MosquittoSession.from(context), let message else { return }
            session.received(message.pointee)
        }
    }

    deinit {
        mosquitto_destroy(handle)
    }

    /// Connects (or keeps trying) and runs the network loop on a thread of its own.
    func start(broker: RemoteBroker, keepalive: TimeInterval) throws {
        let (host, port) = switch broker {
        case .tcp(let host, let port): (host, Int32(port))
        // libmosquitto takes port 0 as "host is a unix socket path".
        case .unix(let path): (path, Int32(0))
        }
        // Threaded: a packet queued from another thread (DISCONNECT at stop) is written by the
        // network thread, never by the caller, so only that thread ever writes.
        try check(mosquitto_threaded_set(handle, true), "threaded mode")
        let thread = Thread { [self] in
            Thread.current.name = "widgetd-mqtt"
            network(host: host, port: port, keepalive: Int32(keepalive))
            finished.signal()
        }
        thread.start()
    }

    /// Disconnects and waits for the network thread to end.
    func stop() {
        lifecycle.withLock { $0 = .stopping }
        wake.signal()
        mosquitto_disconnect(handle)
        finished.wait()
    }

    /// The network thread: connect, with backoff while the broker cannot be reached, then
    /// `mosquitto_loop_forever`, which reconnects by itself after a lost connection and sleeps
    /// until the socket is readable or the keepalive is due. libmosquitto's own thread
    /// (`mosquitto_loop_start`) is not used: after a first connect that fails it polls every
    /// 10 ms and never connects.
    private func network(host: String, port: Int32, keepalive: Int32) {
        var delay = 1.0
        var reported = false
        while true {
            let code = mosquitto_connect(handle, host, port, keepalive)
            let stopping = lifecycle.withLock { state in
                if state == .stopping { return true }
                if code == MOSQ_ERR_SUCCESS.rawValue { state = .connected }
                return false
            }
            if stopping { return }
            if code == MOSQ_ERR_SUCCESS.rawValue {
                delay = 1
                reported = false
                let result = mosquitto_loop_forever(handle, keepalive * 1000, 1)
                if lifecycle.withLock({ $0 == .stopping }) { return }
                // Only fatal errors end the loop (a refused login, a TLS failure): retry later.
                logger.error("MQTT network loop ended; retrying", metadata: ["error": "\(Self.describe(result))"])
            } else if !reported {
                reported = true
                logger.warning("MQTT broker not reachable; retrying", metadata: ["error": "\(Self.describe(code))"])
            }
            if wake.wait(timeout: .now() + delay) == .success, lifecycle.withLock({ $0 == .stopping }) { return }
            delay = min(delay * 2, 60)
        }
    }

    var isConnected: Bool { isUp.withLock { $0 } }

    /// Publishes with QoS 0: dropped while disconnected, so nothing piles up during an outage
    /// (the retained states are published whole at every connection instead). The packet is
    /// queued; the network thread writes it.
    func publish(_ publication: RemotePublication) {
        guard isConnected else { return }
        let result = publication.payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, publication.topic, Int32(bytes.count), bytes.baseAddress, 0, publication.retain)
        }
        if result != MOSQ_ERR_SUCCESS.rawValue, result != MOSQ_ERR_NO_CONN.rawValue {
            logger.warning("MQTT publish failed", metadata: ["topic": "\(publication.topic)", "error": "\(Self.describe(result))"])
        }
    }

    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            logger.warning("MQTT broker refused the connection", metadata: ["reason": "\(String(cString: mosquitto_connack_string(code)))"])
            return
        }
        isUp.withLock { $0 = true }
        // The session keeps subscriptions, but a broker that lost it (no persistence) would not.
        for topic in subscriptions {
            var mid: Int32 = 0
            let result = mosquitto_subscribe(handle, &mid, topic, 1)
            if result == MOSQ_ERR_SUCCESS.rawValue {
                pending.withLock { $0[mid] = topic }
            } else {
                logger.error("MQTT subscribe failed", metadata: ["topic": "\(topic)", "error": "\(Self.describe(result))"])
            }
        }
        logger.info("MQTT connected", metadata: ["subscriptions": "\(subscriptions.joined(separator: " "))"])
        onConnect()
    }

    /// Logged so that a reader knows from when messages published reach this session.
    private func didSubscribe(_ mid: Int32, granted: Int32?) {
        guard let topic = pending.withLock({ $0.removeValue(forKey: mid) }) else { return }
        // 0x80: the broker refused the subscription (its ACL, usually).
        guard let granted, granted != 0x80 else {
            logger.error("MQTT subscription refused by the broker", metadata: ["topic": "\(topic)"])
            return
        }
        logger.info("MQTT subscribed", metadata: ["topic": "\(topic)", "qos": "\(granted)"])
    }

    private func didDisconnect(_ code: Int32) {
        isUp.withLock { $0 = false }
        // 0: we asked for it (stop).
        guard code != 0 else { return }
        logger.warning("MQTT connection lost; reconnecting", metadata: ["error": "\(Self.describe(code))"])
    }

    private func received(_ message: mosquitto_message) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        let payload: [UInt8] = if let bytes = message.payload, message.payloadlen > 0 {
            Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
        } else {
            []
        }
        switch handler(topic, payload) {
        case .acknowledge:
            redeliveryPause.withLock { $0 = 1 }
        case .redeliver:
            // The broker sends it again as soon as the session resumes: pause first, longer
            // each time in a row, so a fault that lasts (a full disk) is not retried in a loop.
            let pause = redeliveryPause.withLock { pause in
                defer { pause = min(pause * 2, 60) }
                return pause
            }
            _ = wake.wait(timeout: .now() + pause)
            let socket = mosquitto_socket(handle)
            if socket >= 0 { Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw ServerError("[remote]: \(what): \(Self.describe(code))")
    }

    private static func describe(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MosquittoSession? {
        context.map { Unmanaged<MosquittoSession>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The password file's first line: a password never sits in widgetd.conf.
    private static func readPassword(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError("[remote] password-file: cannot read \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
