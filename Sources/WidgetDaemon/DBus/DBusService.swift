import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import WidgetCore
import WidgetProtocol

/// `WidgetCenter1` on D-Bus (`--dbus system|session`, docs/dbus.md): the bus thread, fed
/// with the engine's answers and with signals made from the events the socket's subscribers
/// get. Only in the service group with `--dbus`, so without it nothing about D-Bus runs.
struct DBusService: Service {
    let endpoint: DBusEndpoint
    let subscriber: Subscriber
    let events: EventHub

    init(kind: DBusBusKind, engine: Engine, maxCallsPerUID: Int, logger: Logger) throws {
        let loop = engine.loop
        // Each call is one request line, served as the socket serves it, for the bus's caller.
        endpoint = try DBusEndpoint(kind: kind, maxCallsPerUID: maxCallsPerUID, logger: logger) { line, caller, answered in
            let buffer = ByteBuffer(bytes: line)
            loop.execute {
                engine.assumeIsolated { engine in
                    engine.serve(buffer, caller: caller, connection: nil) { answer in
                        answered(answer.map { Array($0.readableBytesView) })
                    }
                }
            }
        }
        let endpoint = self.endpoint
        // Events are published on the loop, where an instance's kind can be looked up.
        subscriber = Subscriber { line in
            guard let notification = try? WidgetJSON.decoder.decode(EventNotification.self, from: Data(line.readableBytesView)) else {
                return
            }
            let onLoop = loop.inEventLoop
            let signals = DBusSignal.signals(for: notification.params) { id in
                onLoop ? engine.assumeIsolated { $0.state.instances[id]?.kind } : nil
            }
            if !signals.isEmpty { endpoint.post(.signals(signals)) }
        }
        events = engine.events
    }

    func run() async throws {
        endpoint.start()
        events.subscribe(subscriber)
        try? await gracefulShutdown()
        events.unsubscribe(subscriber)
        // Joining the bus thread blocks: never on the loop.
        let endpoint = self.endpoint
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                endpoint.stop()
                done.resume()
            }
        }
    }
}
