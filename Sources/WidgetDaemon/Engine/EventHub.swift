import Foundation
import NIOCore
import Synchronization
import WidgetCore
import WidgetProtocol

/// Fans events out to subscribed connections. Each event is encoded once; each connection
/// writes it between its answers and keeps at most `Subscriber.buffer` unsent events for a
/// host that stops reading (the oldest go), so a slow host cannot grow the daemon's memory.
public final class EventHub: Sendable {
    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])

    public init() {}

    public var count: Int { subscribers.withLock { $0.count } }

    func subscribe(_ subscriber: Subscriber) {
        subscribers.withLock { $0[ObjectIdentifier(subscriber)] = subscriber }
    }

    func unsubscribe(_ subscriber: Subscriber) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(subscriber)) }
    }

    /// Encodes once, delivers to everyone (nothing without subscribers).
    public func publish(_ event: WidgetEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        guard !targets.isEmpty else { return }
        let notification = EventNotification(event)
        guard let line = notification.directJSON() ?? (try? WidgetJSON.encoder.encode(notification)) else { return }
        let buffer = ByteBuffer(bytes: line)
        for target in targets { target.deliver(buffer) }
    }
}

/// A connection that streams events (`subscribe`): `deliver` hands it one event line.
final class Subscriber: Sendable {
    /// Events a connection holds for a host that does not read; beyond it the oldest go.
    static let buffer = 1000

    let deliver: @Sendable (ByteBuffer) -> Void

    init(deliver: @escaping @Sendable (ByteBuffer) -> Void) {
        self.deliver = deliver
    }
}
