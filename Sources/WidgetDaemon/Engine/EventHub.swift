import Foundation
import Synchronization
import WidgetCore
import WidgetProtocol

/// Fans events out to subscribed connections. Each subscriber has a bounded buffer: a host
/// that stops reading loses the oldest events rather than growing the daemon's memory.
public final class EventHub: Sendable {
    private let subscribers = Mutex<[UInt64: AsyncStream<Data>.Continuation]>([:])
    private let nextID = Mutex<UInt64>(0)
    static let buffer = 1000

    public init() {}

    public var count: Int { subscribers.withLock { $0.count } }

    public func subscribe() -> (id: UInt64, events: AsyncStream<Data>) {
        let id = nextID.withLock { value -> UInt64 in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(Self.buffer))
        subscribers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    public func unsubscribe(_ id: UInt64) {
        subscribers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    /// Encodes once, delivers to everyone (no-op without subscribers).
    public func publish(_ event: WidgetEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        guard !targets.isEmpty, let line = try? WidgetJSON.encoder.encode(EventNotification(event)) else { return }
        for target in targets { target.yield(line) }
    }
}
