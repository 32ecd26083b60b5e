import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol

/// One request being answered: who asked, and where the answer goes. Every call is answered
/// exactly once (a notification with nothing).
struct Call: Sendable {
    let id: RPCID?
    let isNotification: Bool
    let caller: PeerCredentials
    /// Root or the daemon's own user: no access decision is needed.
    let trusted: Bool
    /// The connection it came on, for `subscribe`.
    let connection: Subscriber?
    /// The kinds a request that names none may act on (a kind's owner); nil: every kind.
    var scope: Set<String>? = nil
    /// Takes the answer line (without its newline); nil for a notification.
    let reply: @Sendable (ByteBuffer?) -> Void

    func succeed<R: Encodable>(_ result: R) {
        guard !isNotification else { return reply(nil) }
        reply(Answers.success(id, result))
    }

    func fail(_ error: RPCError) {
        guard !isNotification else { return reply(nil) }
        reply(Answers.failure(id, error))
    }

    /// Answers once `settlement` (the work the request started, on the virtual clock) is done.
    func succeed<R: Encodable>(_ result: R, after settlement: Settlement?) {
        guard let settlement else { return succeed(result) }
        settlement.whenSettled { succeed(result) }
    }

    func fail(_ error: RPCError, after settlement: Settlement?) {
        guard let settlement else { return fail(error) }
        settlement.whenSettled { fail(error) }
    }
}
