import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import WidgetCore
import WidgetProtocol

/// A connection the gate refused (`max-connections`, `max-connections-per-uid` or
/// `reserved-connections`), or another user's on a user service: it gets the error (the
/// limit's names its key; id null: no request was read) and is closed. Nothing is read, so a refused client costs no more than this one line.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let error: RPCError
    private var refused = false

    init(_ error: RPCError) {
        self.error = error
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        var line = Answers.failure(nil, error)
        line.writeString("\n")
        let channel = context.channel
        // A close drops what the channel still holds: it waits for the line to leave.
        context.writeAndFlush(wrapOutboundOut(line)).whenComplete { _ in channel.close(promise: nil) }
    }
}
