import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import WidgetCore
import WidgetProtocol

/// The control socket: newline-delimited JSON-RPC on a unix stream socket, many clients at
/// once, each on the engine's event loop (`ControlHandler`).
public final class ControlServer: Service {
    public static let maxLineBytes = 1 << 20

    private let channel: any Channel
    private let connections: ConnectionRegistry
    let logger: Logger
    /// The path this process bound (and so removes on exit); nil when systemd passed the socket.
    public let boundPath: String?

    private init(channel: any Channel, connections: ConnectionRegistry, logger: Logger, boundPath: String?) {
        self.channel = channel
        self.connections = connections
        self.logger = logger
        self.boundPath = boundPath
    }

    /// Binds `path` (mode 0660, the host group `group` when it exists: `gid`; mode 0600 for
    /// a user service, `private`), or adopts `inheritedSocket` from systemd without touching it.
    public static func listen(
        path: String, inheritedSocket: CInt?, group: String, gid: UInt32?, private: Bool = false, engine: Engine,
        logger: Logger
    ) async throws -> ControlServer {
        let registry = ConnectionRegistry()
        let daemonUID = engine.daemonUID
        let gate = engine.connections
        let bootstrap = ServerBootstrap(group: engine.loop)
            .serverChannelOption(.backlog, value: 256)
            // A client may send its last request and shut down its writing side (`socat`, a
            // script): the answers still go out before the connection closes.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // One read per readiness event, as a request-response peer needs: a second read
            // would only find EAGAIN.
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelInitializer { channel in
                // Who connected is read here, once, before the first byte is read: admission
                // and every request of the connection are decided for that caller. A caller
                // that cannot be identified may only read, and has the share of its own uid.
                PeerCredentialReader.read(channel, daemonUID: daemonUID).recover { _ in .unidentified }
                    .flatMapThrowing { caller in
                        let pipeline = channel.pipeline.syncOperations
                        // A user service: another account is answered once and closed, before
                        // it takes a share of the gate. Logged at debug only: a stranger
                        // connecting in a loop must not fill the user's journal.
                        if let refusal = engine.assumeIsolated({ $0.connectionRefusal(caller) }) {
                            logger.debug(
                                "connection refused: this widgetd serves one user",
                                metadata: ["uid": "\(caller.uid)", "pid": "\(caller.pid)"])
                            try pipeline.addHandler(RefusingHandler(.permissionDenied(refusal)))
                            return
                        }
                        let standing = engine.assumeIsolated { $0.connectionStanding(caller) }
                        switch gate.admit(uid: caller.uid, standing) {
                        case .admitted:
                            registry.add(channel)
                            channel.closeFuture.whenComplete { _ in gate.release(uid: caller.uid) }
                            try pipeline.addHandler(ControlHandler(engine: engine, caller: caller))
                        case .refused(let exceeded, let report):
                            if let report {
                                logger.warning(
                                    "connection refused: \(exceeded.setting) reached",
                                    metadata: [
                                        "uid": "\(caller.uid)", "pid": "\(caller.pid)", "open": "\(gate.open)",
                                        "max": "\(exceeded.max)", "refused": "\(report)",
                                    ])
                            }
                            try pipeline.addHandler(RefusingHandler(.limitExceeded(exceeded)))
                        }
                    }
            }
        let channel: any Channel
        let boundPath: String?
        if let fd = inheritedSocket {
            channel = try await bootstrap.withBoundSocket(fd).get()
            boundPath = nil
            logger.info("listening on socket passed by systemd", metadata: ["fd": "\(fd)"])
        } else {
            try SocketPath.prepare(path)
            channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            if `private` {
                chmod(path, 0o600)
            } else {
                SocketPath.grant(path, group: group, gid: gid, logger: logger)
            }
            boundPath = path
            logger.info("listening", metadata: ["socket": "\(path)", "group": "\(gid == nil ? "-" : group)"])
        }
        return ControlServer(channel: channel, connections: registry, logger: logger, boundPath: boundPath)
    }

    public func run() async throws {
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            self.channel.close(promise: nil)
        }
        // The listener is closed: end the connections still open too.
        for connection in connections.all() { connection.close(promise: nil) }
        if let boundPath { unlink(boundPath) }
    }
}
