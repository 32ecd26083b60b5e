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
    /// The daemon's own parts told that a step changed something, without the events (nothing
    /// is encoded for them, and they are no subscribers): registered for the daemon's lifetime.
    private let nudges = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    public var count: Int { subscribers.withLock { $0.count } }

    func subscribe(_ subscriber: Subscriber) {
        subscribers.withLock { $0[ObjectIdentifier(subscriber)] = subscriber }
    }

    func unsubscribe(_ subscriber: Subscriber) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(subscriber)) }
    }

    /// Calls `nudge` after every step that changed something, on the loop, from now on.
    func onChange(_ nudge: @escaping @Sendable () -> Void) {
        nudges.withLock { $0.append(nudge) }
    }

    /// A step changed something (`Engine.publish`), whether or not anyone subscribes.
    func changed() {
        for nudge in nudges.withLock({ $0 }) { nudge() }
    }

    /// Encodes once, delivers to everyone (nothing without subscribers).
    public func publish(_ event: WidgetEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        guard !targets.isEmpty, let buffer = Self.line(event) else { return }
        for target in targets { target.deliver(buffer) }
    }

    /// An event that shows donations: each subscriber gets it as `sight` (what its caller may
    /// see of them, narrowed to the event's instances) redacts it. Each distinct form is
    /// encoded once: the full form for everyone who sees it all, one redacted form for
    /// everyone who sees none of it.
    func publish(_ event: WidgetEvent, sight: (PeerCredentials) -> DonationSight) {
        let targets = subscribers.withLock { Array($0.values) }
        guard !targets.isEmpty else { return }
        var forms: [DonationSight: ByteBuffer?] = [:]
        // A user's bars and scripts share one decision: rights do not depend on the pid.
        var sights: [PeerCredentials: DonationSight] = [:]
        for target in targets {
            let seen = target.caller.map { caller in
                var rights = caller
                rights.pid = 0
                if let known = sights[rights] { return known }
                let decided = sight(caller)
                sights[rights] = decided
                return decided
            } ?? .everything
            if forms[seen] == nil { forms[seen] = Self.line(event.redacted(for: seen)) }
            if let buffer = forms[seen] ?? nil { target.deliver(buffer) }
        }
    }

    private static func line(_ event: WidgetEvent) -> ByteBuffer? {
        let notification = EventNotification(event)
        guard let line = notification.directJSON() ?? (try? WidgetJSON.encoder.encode(notification)) else { return nil }
        return ByteBuffer(bytes: line)
    }
}
