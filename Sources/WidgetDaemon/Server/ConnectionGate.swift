import Synchronization

/// Open control connections against `max-connections` of `[limits]`. The socket server asks
/// before serving an accepted connection and tells when it ends; one over the limit is
/// answered with an error and closed, while the connections already open go on.
public final class ConnectionGate: Sendable {
    /// What to do with an accepted connection. A refusal carries how many connections were
    /// refused since the last one logged, when it is time to log again (nil: stay quiet).
    public enum Admission: Sendable, Equatable {
        case admitted
        case refused(report: Int?)
    }

    /// Refusals are logged at most this often, so a client that reconnects in a loop cannot
    /// flood the journal; each line says how many there were since the previous one.
    static let reportInterval: Duration = .seconds(60)

    private struct State {
        var open = 0
        var max: Int
        var unreported = 0
        var lastReport: ContinuousClock.Instant?
    }

    private let state: Mutex<State>

    public init(max: Int) {
        state = Mutex(State(max: max))
    }

    /// Connections being served now.
    public var open: Int { state.withLock { $0.open } }

    public var max: Int { state.withLock { $0.max } }

    /// SIGHUP: a lower limit closes nothing; new connections wait until enough have ended.
    public func setMax(_ max: Int) {
        state.withLock { $0.max = max }
    }

    /// Counts the connection in when there is room; `release` must follow when it ends.
    public func admit(now: ContinuousClock.Instant = .now) -> Admission {
        state.withLock { state in
            if state.open < state.max {
                state.open += 1
                return .admitted
            }
            state.unreported += 1
            if let last = state.lastReport, now - last < Self.reportInterval { return .refused(report: nil) }
            state.lastReport = now
            defer { state.unreported = 0 }
            return .refused(report: state.unreported)
        }
    }

    public func release() {
        state.withLock { $0.open -= 1 }
    }
}
