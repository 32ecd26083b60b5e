import Foundation
import NIOCore
import WidgetProtocol

/// What the engine answered a remote update's request, for deciding its acknowledgement.
enum RemoteAnswer: Sendable, Equatable {
    /// Committed.
    case applied
    /// Refused for good (bad params, an unknown kind or instance, not authorized, a limit):
    /// the same message would be refused again.
    case refused(String)
    /// Not applied for a reason that passes (the store failed, the daemon is stopping).
    case notApplied(String)

    /// Codes after which the same request may well succeed later.
    private static let passing: Set<Int> = [
        RPCError.Code.internalError, RPCError.Code.storageFailure, RPCError.Code.busy, RPCError.Code.shuttingDown,
    ]

    init(_ reply: ByteBuffer?) {
        guard let reply, let object = (try? JSONSerialization.jsonObject(with: Data(reply.readableBytesView))) as? [String: Any] else {
            self = .notApplied("no answer")
            return
        }
        guard let error = object["error"] as? [String: Any] else {
            self = .applied
            return
        }
        let code = error["code"] as? Int ?? RPCError.Code.internalError
        let message = error["message"] as? String ?? "error \(code)"
        self = Self.passing.contains(code) ? .notApplied(message) : .refused(message)
    }

    /// Whether the broker may forget the message.
    var verdict: MosquittoSession.Verdict {
        if case .notApplied = self { return .redeliver }
        return .acknowledge
    }
}
