import Foundation
import HummingbirdCore
import Logging
import NIOCore
import Synchronization
import WidgetCore
import WidgetProtocol

/// How many connections one listener holds at once (`--max-connections`), and what one more
/// gets: a `503` with `Retry-After`, then the connection is closed.
///
/// The descriptors a listener can hold are bounded whatever the rate of new connections:
/// past the limit, `refusalSlots` more are answered at once; past those the listener stops
/// accepting until one closes (the kernel's backlog holds the rest), and one accept takes at
/// most `acceptBatch`. That bound matters beyond the connections: at its open-file limit
/// the host dies, because libdispatch's thread-pool monitor opens `/proc/TID/stat` once a
/// second while work waits and traps (SIGILL) when that open fails; so the host keeps its
/// descriptors under the limit instead of letting accepts fail.
final class ConnectionLimit: Sendable {
    static let refusalSlots = 32
    /// NIO's server channel accepts up to this many connections per wake-up.
    static let acceptBatch = 4
    /// Descriptors for the host's own use: event loops, calls to widgetd, the subscription,
    /// template files, and libdispatch's monitor.
    static let reserve = 64

    static func descriptors(listeners: Int, connections: Int) -> Int {
        listeners * (connections + refusalSlots + acceptBatch) + reserve
    }

    let maximum: Int
    let listener: String
    /// The whole answer to a connection past the limit.
    let refusal: String

    private struct State {
        var open = 0
        var refused = 0
        var refusedSinceLine = 0
        var lastLine: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    init(maximum: Int, listener: String) {
        self.maximum = maximum
        self.listener = listener
        let message = "the web host holds at most \(maximum) connections on \(listener) (--max-connections); try again shortly"
        let body = JSONValue.object(["error": .object(["code": .integer(Int64(RPCError.Code.limitExceeded)), "message": .string(message)])]).compactText
        refusal = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 5\r\nCache-Control: no-store\r\n\(FramingHeaders.lines)Connection: close\r\n\r\n\(body)"
    }

    /// True: the connection counts until it closes (`release`). False: it is to be refused.
    func admit() -> Bool {
        let (admitted, line) = state.withLock { state -> (Bool, String?) in
            if state.open < maximum {
                state.open += 1
                return (true, nil)
            }
            state.refused += 1
            state.refusedSinceLine += 1
            // One line when it starts, then at most one a minute while it lasts.
            let now = ContinuousClock.now
            if let last = state.lastLine, now < last + .seconds(60) { return (false, nil) }
            state.lastLine = now
            defer { state.refusedSinceLine = 0 }
            return (false, "widgetd-web: \(listener) holds \(maximum) connections, the most --max-connections allows: "
                + "answering 503 to \(state.refusedSinceLine) more (\(state.refused) since start)\n")
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
        return admitted
    }

    func release() {
        state.withLock { $0.open -= 1 }
    }
}
