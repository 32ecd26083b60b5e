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
    /// With `publish = true`: events and stacks to the broker, and its place in the event hub.
    let publisher: (RemotePublisher, Subscriber)?
    let events: EventHub
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
        events = engine.events
        let publisher = settings.publish ? RemotePublisher(topics: RemoteTopics(prefix: settings.topicPrefix), inbox: inbox) : nil
        self.publisher = publisher.map { publisher in (publisher, Subscriber { publisher.event($0) }) }
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
            }, connected: { publisher?.connected() }, logger: logger)
        if let publisher { publisher.attach(session) }
    }

    func run() async throws {
        await inbox.start()
        if let (_, subscriber) = publisher { events.subscribe(subscriber) }
        defer { if let (_, subscriber) = publisher { events.unsubscribe(subscriber) } }
        try session.start(broker: broker, keepalive: settings.keepalive)
        logger.info("remote updates on", metadata: ["broker": "\(broker)", "topic_prefix": "\(settings.topicPrefix)"])
        try? await gracefulShutdown()
        await inbox.stop()
        // Joining the network thread blocks, and that thread may be waiting for a task on the
        // event loop (a message being applied): never block the loop for it.
        let session = self.session
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                session.stop()
                done.resume()
            }
            thread.start()
        }
    }

    private static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
