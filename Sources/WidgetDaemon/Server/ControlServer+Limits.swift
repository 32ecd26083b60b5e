import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

/// `max-connections`: a connection beyond it gets one JSON-RPC error line and is closed; the
/// connections already open are served as before.
extension ControlServer {
    /// Whether to serve an accepted connection (it is then counted until `serve` returns).
    func admit() -> Bool {
        let gate = router.engine.connections
        switch gate.admit() {
        case .admitted:
            return true
        case .refused(let report):
            if let report {
                logger.warning(
                    "connection refused: max-connections reached",
                    metadata: ["open": "\(gate.open)", "max": "\(gate.max)", "refused": "\(report)"])
            }
            return false
        }
    }

    /// Writes the limit error (id null: no request was read) and closes. Nothing is read, so
    /// a refused client costs no more than this one line.
    func refuse(_ connection: NIOAsyncChannel<Frame, ByteBuffer>) async {
        let exceeded = LimitExceeded.connections(max: router.engine.connections.max)
        let failure = RequestRouter.encode(RPCFailure(id: nil, error: .limitExceeded(exceeded)))
        do {
            try await connection.executeThenClose { _, outbound in
                try await outbound.write(Self.line(failure))
                // As in `serve`: the close must not drop the line still in the channel.
                try await Self.flushBeforeClose(connection.channel)
            }
        } catch {
            logger.debug("refused connection ended", metadata: ["error": "\(error)"])
        }
    }
}
