import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

/// One control connection, on the engine's event loop: reads a line, hands it to the engine
/// (no hop: the engine runs on this loop), and writes the answer. Requests of a connection
/// are answered in order, one at a time; lines that arrive meanwhile wait here, and past a
/// few the connection stops reading until they are answered. After `subscribe`, events are
/// written between answers.
final class ControlHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Lines held for a peer that pipelines before reading stops.
    static let readAhead = 16

    private let engine: Engine
    private let caller: PeerCredentials
    private var context: ChannelHandlerContext?
    private var lines = LineSplitter(limit: ControlServer.maxLineBytes)
    private var waiting = CircularBuffer<Frame>()
    private var busy = false
    private var readingPaused = false
    private var inputClosed = false
    private var closed = false
    private var needsFlush = false
    /// `next` is running: an answer given inline only marks the line done, and `next`'s own
    /// loop goes on (no recursion, however many lines a read delivered).
    private var inNext = false
    /// Set once the connection subscribes; events not yet written while it does not read.
    private var subscriber: Subscriber?
    private var heldEvents = CircularBuffer<ByteBuffer>()
    private var reply: (@Sendable (ByteBuffer?) -> Void)?

    init(engine: Engine, caller: PeerCredentials) {
        self.engine = engine
        self.caller = caller
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        reply = { answer in
            if loop.inEventLoop {
                handler.value.answered(answer)
            } else {
                loop.execute { handler.value.answered(answer) }
            }
        }
        subscriber = Subscriber(caller: caller) { line in
            if loop.inEventLoop {
                handler.value.deliver(line)
            } else {
                loop.execute { handler.value.deliver(line) }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lines.split(unwrapInboundIn(data), into: &waiting)
        if waiting.count >= Self.readAhead, !readingPaused {
            readingPaused = true
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
        next()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer shut down its writing side (`socat`, a script): the answers still go out
        // before the connection closes.
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            lines.finish(into: &waiting)
            next()
            flushIfNeeded()
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { writeHeldEvents() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        if let subscriber { engine.events.unsubscribe(subscriber) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: Requests

    /// Hands the next waiting line to the engine, unless one is being answered.
    private func next() {
        guard !inNext else { return }
        inNext = true
        defer { inNext = false }
        while !busy, !closed, let frame = waiting.popFirst() {
            switch frame {
            case .line(let line):
                guard line.readableBytesView.contains(where: { !Self.isSpace($0) }) else { continue }
                busy = true
                let caller = self.caller
                let subscriber = self.subscriber
                let reply = self.reply!
                engine.assumeIsolated { engine in
                    engine.serve(line, caller: caller, connection: subscriber, reply: reply)
                }
            case .tooLong:
                write(Answers.failure(nil, .messageTooLarge(limit: ControlServer.maxLineBytes)))
                waiting.removeAll()
                close()
                return
            }
        }
        if readingPaused, waiting.count < Self.readAhead / 2, let context {
            readingPaused = false
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
        closeIfDone()
    }

    /// The engine answered the line being served (nil: a notification).
    private func answered(_ answer: ByteBuffer?) {
        guard busy else { return }
        busy = false
        if let answer { write(answer) }
        next()
        flushIfNeeded()
    }

    // MARK: Events

    private func deliver(_ line: ByteBuffer) {
        guard !closed, let context else { return }
        guard context.channel.isWritable, heldEvents.isEmpty else {
            if heldEvents.count >= Subscriber.buffer { heldEvents.removeFirst() }
            heldEvents.append(line)
            return
        }
        write(line)
        flushIfNeeded()
    }

    private func writeHeldEvents() {
        guard let context else { return }
        while context.channel.isWritable, let line = heldEvents.popFirst() { write(line) }
        flushIfNeeded()
    }

    // MARK: Writing

    /// Writes a line and its newline, in one buffer (one iovec).
    private func write(_ line: ByteBuffer) {
        guard !closed, let context else { return }
        var line = line
        line.writeInteger(UInt8(ascii: "\n"))
        context.write(wrapOutboundOut(line), promise: nil)
        needsFlush = true
    }

    private func flushIfNeeded() {
        guard needsFlush, let context else { return }
        needsFlush = false
        context.flush()
    }

    /// After a half-close, once every line is answered: flush, then close. A close drops what
    /// the channel still holds, so it waits for the writes to leave.
    private func closeIfDone() {
        guard inputClosed, !busy, waiting.isEmpty, !closed else { return }
        close()
    }

    private func close() {
        guard let context, !closed else { return }
        closed = true
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: flushed)
        let channel = context.channel
        flushed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
