import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import WidgetCore
import WidgetProtocol

/// The control socket: newline-delimited JSON-RPC on a unix stream socket, many clients at
/// once, requests of one connection answered in order.
public final class ControlServer: Service {
    public static let maxLineBytes = 1 << 20

    private let listener: NIOAsyncChannel<ControlConnection, Never>
    let router: RequestRouter
    let logger: Logger
    /// The path this process bound (and so removes on exit); nil when systemd passed the socket.
    public let boundPath: String?

    private init(
        listener: NIOAsyncChannel<ControlConnection, Never>, router: RequestRouter, logger: Logger,
        boundPath: String?
    ) {
        self.listener = listener
        self.router = router
        self.logger = logger
        self.boundPath = boundPath
    }

    /// Binds `path` (mode 0660), or adopts `inheritedSocket` from systemd without touching it.
    public static func listen(
        path: String, inheritedSocket: CInt?, router: RequestRouter, logger: Logger, group: any EventLoopGroup
    ) async throws -> ControlServer {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            // A client may send its last request and shut down its writing side (`socat`, a
            // script): the answers still go out before the connection closes.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        let daemonUID = router.daemonUID
        // Who connected is read here, once, before the first byte is read: every request of
        // the connection is decided for that caller.
        let initializer: @Sendable (any Channel) -> EventLoopFuture<ControlConnection> = { channel in
            // A failed read must not fail the initializer: NIO would report that through the
            // listener and end the accept loop. A caller that cannot be identified may only read.
            PeerCredentialReader.read(channel, daemonUID: daemonUID).recover { _ in .unidentified }.flatMapThrowing { caller in
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineFrameDecoder(limit: maxLineBytes)))
                let wrapped = try NIOAsyncChannel<Frame, ByteBuffer>(
                    wrappingChannelSynchronously: channel,
                    configuration: .init(isOutboundHalfClosureEnabled: true))
                return ControlConnection(channel: wrapped, caller: caller)
            }
        }
        if let fd = inheritedSocket {
            let listener = try await bootstrap.bind(fd, childChannelInitializer: initializer)
            logger.info("listening on socket passed by systemd", metadata: ["fd": "\(fd)"])
            return ControlServer(listener: listener, router: router, logger: logger, boundPath: nil)
        }
        try SocketPath.prepare(path)
        let listener = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
        chmod(path, 0o660)
        logger.info("listening", metadata: ["socket": "\(path)"])
        return ControlServer(listener: listener, router: router, logger: logger, boundPath: path)
    }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await listener.executeThenClose { connections in
                    for try await connection in connections {
                        guard admit() else {
                            group.addTask { await self.refuse(connection.channel) }
                            continue
                        }
                        group.addTask {
                            await self.serve(connection.channel, caller: connection.caller)
                            self.router.engine.connections.release()
                        }
                    }
                }
                // The listener is closed: end the connections still open too.
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.listener.channel.close(promise: nil)
        }
        if let boundPath { unlink(boundPath) }
    }

    /// Serves one connection: requests answered in order. After `subscribe`, events are
    /// written between answers. Answers and events go straight to the channel's writer, which
    /// takes whole lines from several tasks, so lines never mix.
    ///
    /// Why not one writer task fed by a stream: each answer then took two more task switches
    /// (the stream's consumer, then the channel), about 4% of the daemon's CPU per request.
    private func serve(_ connection: NIOAsyncChannel<Frame, ByteBuffer>, caller: PeerCredentials) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    var subscriptions: [UInt64] = []
                    defer {
                        for id in subscriptions { router.unsubscribe(id) }
                    }
                    reading: for try await frame in inbound {
                        switch frame {
                        case .line(let buffer):
                            guard buffer.readableBytesView.contains(where: { !Self.isSpace($0) }) else { continue }
                            let reply = await router.process(Data(buffer.readableBytesView), caller: caller)
                            if let answer = reply.answer { try await outbound.write(Self.line(answer)) }
                            if let (id, events) = reply.subscription {
                                subscriptions.append(id)
                                // The hub keeps at most `EventHub.buffer` events for a host that
                                // stops reading; this task waits on the channel, not on memory.
                                group.addTask {
                                    for await event in events { try await outbound.write(Self.line(event)) }
                                }
                            }
                        case .tooLong:
                            let failure = RequestRouter.encode(RPCFailure(id: nil, error: .messageTooLarge(limit: Self.maxLineBytes)))
                            try await outbound.write(Self.line(failure))
                            break reading
                        }
                    }
                    try await Self.flushBeforeClose(connection.channel)
                    // The peer is gone (or closed its side): its subscriptions end with it.
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Waits until everything written to `channel` has left it. `executeThenClose` closes as
    /// soon as its body returns, and a close drops what the channel still holds: the answers a
    /// slow reader has not taken yet (a client that pipelines and half-closes lost the tail of
    /// its answers; found by HostileFramesTests). An empty write completes after every write
    /// before it. A peer that never reads must not hold up shutdown: cancelled, it is closed.
    static func flushBeforeClose(_ channel: any Channel) async throws {
        let flushed = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(ByteBuffer(), promise: flushed)
        try await withTaskCancellationHandler {
            try await flushed.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    /// An accepted connection and who is at its other end.
    struct ControlConnection: Sendable {
        var channel: NIOAsyncChannel<Frame, ByteBuffer>
        var caller: PeerCredentials
    }

    static func line(_ data: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(data.count + 1)
        buffer.writeBytes(data)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
