import HummingbirdCore
import Logging
import NIOCore

/// First in every connection's pipeline, before HTTP: counts the connection against its
/// listener's limit, or answers one past it `503` and closes it. A refused connection's bytes
/// never reach the HTTP handlers; its answer is written whole, output is shut, and the
/// connection closes when the client closes its side (so the answer is read, not reset) or
/// after `lingering`, whichever comes first.
final class HTTPConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let lingering = TimeAmount.seconds(2)

    private let limit: ConnectionLimit
    private var refused = false
    private var answered = false

    init(_ limit: ConnectionLimit) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if limit.admit() {
            context.channel.closeFuture.whenComplete { [limit] _ in limit.release() }
        } else {
            refused = true
            if context.channel.isActive { refuse(context) }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if refused { refuse(context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if refused, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: limit.refusal))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        channel.eventLoop.scheduleTask(in: Self.lingering) { channel.close(promise: nil) }
    }
}

/// HTTP/1.1 as Hummingbird serves it, behind an `HTTPConnectionGate` of the listener's limit.
struct GatedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http: HTTP1Channel
    let limit: ConnectionLimit

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionGate(limit))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return http.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with every connection counted against `limit`; one that connects and sends no
    /// whole request head, or keeps a connection open between requests, gives its slot back
    /// after `idleTimeout`.
    static func gated(_ limit: ConnectionLimit, idleTimeout: TimeAmount) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GatedHTTP1Channel(
                http: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)), limit: limit)
        }
    }
}
