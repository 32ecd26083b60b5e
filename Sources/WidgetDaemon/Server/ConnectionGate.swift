import Foundation
import Synchronization
import WidgetCore

/// Open control connections against the connection keys of `[limits]`. The socket server asks
/// once it knows who connected and tells when the connection ends; one refused is answered
/// with an error naming the key and closed, while the connections already open go on.
///
/// The slots are shared so that no one caller locks the others out:
/// - nobody gets past `max-connections`;
/// - a uid holds at most `max-connections-per-uid`, except root and the daemon's own uid;
/// - the last `reserved-connections` slots (at most half of them) are for root, the daemon's
///   uid and the host group: a flood of readers from many uids leaves the hosts room.
public final class ConnectionGate: Sendable {
    /// Who is asking, as far as the slots go.
    public enum Standing: Sendable, Equatable {
        /// Root or the daemon's own uid: no per-uid share, and the reserved slots.
        case unrestricted
        /// A host-group member: a per-uid share, and the reserved slots.
        case host
        /// Anyone else who may connect (readers, kinds' owners).
        case other
    }

    /// What to do with an accepted connection. A refusal names the limit, and carries how
    /// many connections were refused since the last one logged, when it is time to log again
    /// (nil: stay quiet).
    public enum Admission: Sendable, Equatable {
        case admitted
        case refused(LimitExceeded, report: Int?)
    }

    /// The keys that decide admission, and the two that bound an open connection (read as it
    /// goes, so a reload applies to connections already open).
    public struct Limits: Sendable, Equatable {
        public var max: Int
        public var perUID: Int
        public var reserved: Int
        public var maxUnsentBytes: Int
        public var lineTimeout: TimeInterval

        public init(_ settings: LimitSettings) {
            max = settings.maxConnections
            perUID = settings.maxConnectionsPerUID
            reserved = settings.reservedConnections
            maxUnsentBytes = settings.maxUnsentBytes
            lineTimeout = settings.lineTimeout
        }

        /// Slots only the reserved callers may take: never more than half, so a small
        /// `max-connections` still lets readers in.
        var effectiveReserve: Int { Swift.min(reserved, max / 2) }
    }

    /// Refusals are logged at most this often, so a client that reconnects in a loop cannot
    /// flood the journal; each line says how many there were since the previous one.
    static let reportInterval: Duration = .seconds(60)

    private struct State {
        var open = 0
        var byUID: [UInt32: Int] = [:]
        var limits: Limits
        var unreported = 0
        var lastReport: ContinuousClock.Instant?
    }

    private let state: Mutex<State>

    public init(limits: Limits) {
        state = Mutex(State(limits: limits))
    }

    /// Connections being served now.
    public var open: Int { state.withLock { $0.open } }

    public var max: Int { state.withLock { $0.limits.max } }

    public var limits: Limits { state.withLock { $0.limits } }

    /// Connections `uid` holds now.
    public func open(uid: UInt32) -> Int { state.withLock { $0.byUID[uid] ?? 0 } }

    /// SIGHUP: lower limits close nothing; new connections wait until enough have ended.
    public func setLimits(_ limits: Limits) {
        state.withLock { $0.limits = limits }
    }

    /// Counts the connection in when there is room for `uid`; `release(uid:)` must follow
    /// when it ends.
    public func admit(uid: UInt32, _ standing: Standing, now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { state in
            let limits = state.limits
            let held = state.byUID[uid] ?? 0
            let refusal: LimitExceeded?
            if standing != .unrestricted, held >= limits.perUID {
                refusal = .connectionsPerUID(max: limits.perUID, uid: uid)
            } else if state.open >= limits.max {
                refusal = .connections(max: limits.max)
            } else if standing == .other, state.open >= limits.max - limits.effectiveReserve {
                refusal = .reservedConnections(open: limits.max - limits.effectiveReserve, reserved: limits.effectiveReserve)
            } else {
                refusal = nil
            }
            guard let refusal else {
                state.open += 1
                state.byUID[uid] = held + 1
                return .admitted
            }
            state.unreported += 1
            if let last = state.lastReport, now - last < Self.reportInterval { return .refused(refusal, report: nil) }
            state.lastReport = now
            defer { state.unreported = 0 }
            return .refused(refusal, report: state.unreported)
        }
    }

    public func release(uid: UInt32) {
        state.withLock { state in
            state.open -= 1
            let held = (state.byUID[uid] ?? 1) - 1
            state.byUID[uid] = held > 0 ? held : nil
        }
    }
}
