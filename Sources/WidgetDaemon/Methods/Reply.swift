import NIOCore
import WidgetCore
import WidgetProtocol

/// The answer to one call of a method, typed by its spec: a handler answers with the
/// method's `Result` or an error, exactly once. Who asked and the scope are the call's.
struct Reply<Result: Encodable & Sendable>: Sendable {
    let call: Call

    var caller: PeerCredentials { call.caller }
    var trusted: Bool { call.trusted }
    var scope: Set<String>? { call.scope }
    var connection: Subscriber? { call.connection }
    var isNotification: Bool { call.isNotification }

    func succeed(_ result: Result) {
        call.succeed(result)
    }

    /// Answers once `settlement` (the work the request started, on the virtual clock) is done.
    func succeed(_ result: Result, after settlement: Settlement?) {
        call.succeed(result, after: settlement)
    }

    func fail(_ error: RPCError) {
        call.fail(error)
    }

    func fail(_ error: RPCError, after settlement: Settlement?) {
        call.fail(error, after: settlement)
    }

    /// The answer line for `result`, written where it is worked out (off the loop) and
    /// sent later with `send`; nil for a notification.
    func line(_ result: Result) -> ByteBuffer? {
        isNotification ? nil : Answers.success(call.id, result)
    }

    /// Sends a line from `line(_:)`.
    func send(_ line: ByteBuffer?) {
        call.reply(line)
    }
}
