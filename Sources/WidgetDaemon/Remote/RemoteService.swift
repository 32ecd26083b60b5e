import Foundation
import Glibc
import Logging
import ServiceLifecycle
import Synchronization
import WidgetCore

/// Remote updates through an MQTT broker (`[remote]` in widgetd.conf, docs/remote.md): the
/// MQTT session and the inbox that applies its messages. Only in the service group when a
/// broker is configured, so without `[remote]` nothing about MQTT runs at all.
struct RemoteService: Service {
    let settings: RemoteSettings
    let broker: RemoteBroker
    let inbox: RemoteInbox
    let session: MosquittoSession
    let logger: Logger

    /// Everything that can be wrong with the settings (an unknown user, an unreadable password
    /// or certificate file) fails here, before widgetd reports ready.
    init(settings: RemoteSettings, broker: RemoteBroker, engine: Engine, stateDirectory: String, logger: Logger) throws {
        self.settings = settings
        self.broker = broker
        self.logger = logger
        let inbox = RemoteInbox(
            engine: engine, settings: settings, caller: try RemoteIdentity.credentials(settings.identity),
            file: RemoteReloadFile(stateDirectory: stateDirectory), logger: logger)
        self.inbox = inbox
        // libmosquitto calls this on its network thread and sends the PUBACK once it returns:
        // the thread waits here until the update is committed (MosquittoSession explains).
        session = try MosquittoSession(
            settings: settings, hostname: Self.hostname(),
            handler: { topic, payload in
                let verdict = VerdictBox()
                Task {
                    verdict.set(await inbox.apply(topic: topic, payload: payload))
                }
                return verdict.wait()
            }, logger: logger)
    }

    func run() async throws {
        await inbox.start()
        try session.start(broker: broker, keepalive: settings.keepalive)
        logger.info("remote updates on", metadata: ["broker": "\(broker)", "topic_prefix": "\(settings.topicPrefix)"])
        try? await gracefulShutdown()
        await inbox.stop()
        session.stop()
    }

    private static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// Hands a verdict from the inbox's task to the blocked network thread.
private final class VerdictBox: Sendable {
    private let value = Mutex<MosquittoSession.Verdict?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func set(_ verdict: MosquittoSession.Verdict) {
        value.withLock { $0 = verdict }
        ready.signal()
    }

    func wait() -> MosquittoSession.Verdict {
        ready.wait()
        return value.withLock { $0 } ?? .redeliver
    }
}
