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

/// Answer lines.
enum Answers {
    static func success<R: Encodable>(_ id: RPCID?, _ result: R) -> ByteBuffer {
        // The hot answers write their own JSON, byte for byte what JSONEncoder would.
        if let direct = result as? any DirectJSONEncodable {
            return line(direct.successLine(id: id))
        }
        return encode(RPCSuccess(id: id, result: result), id: id)
    }

    /// A buffer holding `bytes` with room for the newline the connection adds.
    static func line<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count + 1)
        buffer.writeBytes(bytes)
        return buffer
    }

    static func failure(_ id: RPCID?, _ error: RPCError) -> ByteBuffer {
        encode(RPCFailure(id: id, error: error), id: id)
    }

    /// An answer JSON cannot hold (a number that is not finite) is a bug in widgetd: the caller
    /// still gets an answer with its id, and the journal says which value it was.
    static func encode<T: Encodable>(_ value: T, id: RPCID?) -> ByteBuffer {
        do {
            return line(try WidgetJSON.encoder.encode(value))
        } catch {
            Logger(label: "widgetd").error(
                "internal error: an answer could not be written as JSON", metadata: ["answer": "\(T.self)", "error": "\(error)"])
            let failure = RPCFailure(id: id, error: RPCError(code: RPCError.Code.internalError, message: "internal error: answer not encodable"))
            guard let data = try? WidgetJSON.encoder.encode(failure) else {
                return ByteBuffer(string: #"{"error":{"code":-32603,"message":"internal error: answer not encodable"},"id":null,"jsonrpc":"2.0"}"#)
            }
            return line(data)
        }
    }
}
