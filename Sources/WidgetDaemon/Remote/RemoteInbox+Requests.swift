import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

/// The requests the inbox makes of the engine: each a JSON-RPC line served as the configured
/// identity, exactly as the control socket would serve it.
extension RemoteInbox {
    /// Whether a donation with this intent type and id is stored already. Asked as the
    /// identity, which may list the donations of any intent type it may donate.
    func isStored(_ key: (intentType: String, id: String)) async -> Bool {
        let donations = await call(Methods.DonationsList.self, DonationsListParams(intentType: key.intentType))
        return donations?.contains { $0.id == key.id } ?? false
    }

    /// Every stack's state, for publishing (reads are open to any identity).
    func stacks() async -> [StackInfo] {
        await call(Methods.StackList.self, EmptyParams()) ?? []
    }

    /// The engine's typed answer to a call of `spec`'s method from the identity; nil when it
    /// failed.
    private func call<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params) async -> Spec.Result? {
        guard let line = try? Spec.requestLine(id: Int64(nextRequestID()), params: params), let reply = await serve(line) else {
            return nil
        }
        return try? WidgetJSON.decoder.decode(RPCResultBox<Spec.Result>.self, from: Data(reply.readableBytesView)).result
    }

    /// The engine's answer to a request line from the identity.
    private func serve(_ bytes: [UInt8]) async -> ByteBuffer? {
        let line = ByteBuffer(bytes: bytes)
        let engine = self.engine
        let caller = self.caller
        return await withCheckedContinuation { continuation in
            engine.loop.execute {
                engine.assumeIsolated { engine in
                    engine.serve(line, caller: caller, connection: nil) { continuation.resume(returning: $0) }
                }
            }
        }
    }

    /// The engine's answer to the update's request, logged.
    func run(_ message: RemoteMessage, topic: String) async -> RemoteAnswer {
        let answer = RemoteAnswer(await serve(message.requestLine(id: Int64(nextRequestID()))))
        switch answer {
        case .applied:
            logger.debug("remote update applied", metadata: ["topic": "\(topic)"])
        case .refused(let reason):
            logger.warning("remote message refused", metadata: ["topic": "\(topic)", "reason": "\(reason)"])
        case .notApplied(let reason):
            logger.warning(
                "remote message not applied; the broker will send it again", metadata: ["topic": "\(topic)", "reason": "\(reason)"])
        }
        return answer
    }
}
