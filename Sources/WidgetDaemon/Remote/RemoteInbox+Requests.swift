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
        let reply = await serve(RemoteMessage.donationsListLine(id: nextRequestID(), intentType: key.intentType))
        guard let reply, let object = (try? JSONSerialization.jsonObject(with: Data(reply.readableBytesView))) as? [String: Any],
            let donations = object["result"] as? [[String: Any]]
        else { return false }
        return donations.contains { $0["id"] as? String == key.id }
    }

    /// Every stack's state, for publishing (reads are open to any identity).
    func stacks() async -> [StackInfo] {
        var out = JSONText()
        out.raw(#"{"jsonrpc":"2.0","method":"stack.list","id":"#)
        out.integer(Int64(nextRequestID()))
        out.raw("}")
        guard let reply = await serve(out.bytes),
            let answer = try? WidgetJSON.decoder.decode(StackListAnswer.self, from: Data(reply.readableBytesView))
        else { return [] }
        return answer.result
    }

    private struct StackListAnswer: Decodable {
        var result: [StackInfo]
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
        let answer = RemoteAnswer(await serve(message.requestLine(id: nextRequestID())))
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
