import Foundation
import Logging
import NIOCore
import WidgetCore
import WidgetProtocol

/// One control connection, on the engine's event loop: reads a line, hands it to the engine
/// (no hop: the engine runs on this loop), and writes the answer. Requests of a connection
/// are answered in order, one at a time; lines that arrive meanwhile wait here, and past a
/// few (or past a line's worth of bytes) the connection stops reading until they are
/// answered. After `subscribe`, events are written between answers.
///
/// What a connection may make the daemon hold is bounded (`[limits]`):
/// - a peer that does not read its answers is not read from either: while the channel is not
///   writable, reading stops and a batch waits between slices, until the peer takes what is
///   pending; answer bytes still waiting past `max-unsent-bytes` close the connection;
/// - a line must end within `line-timeout` of its first byte (a timer runs only while a
///   partial line is held and the connection is read: idle connections and subscribers are
///   never closed, and an idle daemon gets no wake-up from it).
final class ControlHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Lines held for a peer that pipelines before reading stops.
    static let readAhead = 16
    /// Bytes of such lines held before reading stops (a few batches' worth would otherwise
    /// wait here, however many lines that is).
    static let readAheadBytes = ControlServer.maxLineBytes

    private let engine: Engine
    private let caller: PeerCredentials
    private let gate: ConnectionGate
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var lines = LineSplitter(limit: ControlServer.maxLineBytes)
    private var waiting = CircularBuffer<Frame>()
    private var waitingBytes = 0
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
    private var output: BatchOutput?
    /// A batch's answer line is being written in parts: events wait until it ends.
    private var lineOpen = false
    /// A batch waiting for the peer to take what is pending before its next slice.
    private var writableWaiter: (@Sendable () -> Void)?
    private var lineTimer: Scheduled<Void>?

    init(engine: Engine, caller: PeerCredentials) {
        self.engine = engine
        self.caller = caller
        self.gate = engine.connections
        self.logger = engine.io.logger
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
        output = BatchOutput(
            write: { part, end in
                if loop.inEventLoop {
                    handler.value.writePart(part, end: end)
                } else {
                    loop.execute { handler.value.writePart(part, end: end) }
                }
            },
            whenWritable: { resume in
                if loop.inEventLoop {
                    handler.value.whenWritable(resume)
                } else {
                    loop.execute { handler.value.whenWritable(resume) }
                }
            })
        subscriber = Subscriber(caller: caller) { line in
            if loop.inEventLoop {
                handler.value.deliver(line)
            } else {
                loop.execute { handler.value.deliver(line) }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let before = waiting.count
        waitingBytes += lines.split(unwrapInboundIn(data), into: &waiting)
        // A line ended: the next one gets the whole time-out.
        if waiting.count > before { cancelLineTimer() }
        next()
        updateReading()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The peer shut down its writing side (`socat`, a script): the answers still go out
        // before the connection closes.
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            waitingBytes += lines.finish(into: &waiting)
            cancelLineTimer()
            next()
            flushIfNeeded()
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeHeldEvents()
            if let resume = writableWaiter {
                writableWaiter = nil
                resume()
            }
        }
        updateReading()
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        cancelLineTimer()
        if let subscriber { engine.events.unsubscribe(subscriber) }
        // A batch waiting for the peer goes on to its end; its answer goes nowhere.
        if let resume = writableWaiter {
            writableWaiter = nil
            resume()
        }
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
                waitingBytes -= line.readableBytes
                guard line.readableBytesView.contains(where: { !Self.isSpace($0) }) else { continue }
                busy = true
                let caller = self.caller
                let subscriber = self.subscriber
                let reply = self.reply!
                let output = self.output
                engine.assumeIsolated { engine in
                    engine.serve(line, caller: caller, connection: subscriber, reply: reply, output: output)
                }
            case .tooLong:
                write(Answers.failure(nil, .messageTooLarge(limit: ControlServer.maxLineBytes)))
                waiting.removeAll()
                waitingBytes = 0
                close()
                return
            }
        }
        updateReading()
        closeIfDone()
    }

    /// The engine answered the line being served (nil: a notification, or a batch whose
    /// answer was written in parts).
    private func answered(_ answer: ByteBuffer?) {
        guard busy else { return }
        busy = false
        if let answer { write(answer) }
        next()
        flushIfNeeded()
    }

    // MARK: Reading

    /// Stops reading while the peer does not take its answers or enough lines wait, and
    /// reads again once both have gone down (by half, so it does not flap).
    private func updateReading() {
        guard let context, !closed else { return }
        let writable = context.channel.isWritable
        if !readingPaused {
            if !writable || waiting.count >= Self.readAhead || waitingBytes >= Self.readAheadBytes {
                readingPaused = true
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
        } else if writable, waiting.count < Self.readAhead / 2, waitingBytes < Self.readAheadBytes / 2 {
            readingPaused = false
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
        updateLineTimer()
    }

    /// A partial line is timed only while the daemon reads it: a pause of its own making
    /// (the peer's answers pending, lines waiting) does not count against the peer.
    private func updateLineTimer() {
        guard lines.holdsPartial, !readingPaused, !inputClosed, !closed, let context else { return cancelLineTimer() }
        guard lineTimer == nil else { return }
        let seconds = gate.limits.lineTimeout
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        lineTimer = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) {
            handler.value.lineTimedOut(seconds: seconds)
        }
    }

    private func cancelLineTimer() {
        lineTimer?.cancel()
        lineTimer = nil
    }

    /// The peer held a partial line past `line-timeout` (slowloris, or a client stuck
    /// mid-line): it is told which key and closed.
    private func lineTimedOut(seconds: TimeInterval) {
        lineTimer = nil
        guard !closed, lines.holdsPartial else { return }
        logger.warning(
            "connection closed: line-timeout reached",
            metadata: ["uid": "\(caller.uid)", "pid": "\(caller.pid)", "seconds": "\(Int(seconds))"])
        write(Answers.failure(nil, .limitExceeded(.lineTimeout(seconds: Int(seconds)))))
        closeNow()
    }

    // MARK: Events

    private func deliver(_ line: ByteBuffer) {
        guard !closed, let context else { return }
        guard context.channel.isWritable, heldEvents.isEmpty, !lineOpen else {
            if heldEvents.count >= Subscriber.buffer { heldEvents.removeFirst() }
            heldEvents.append(line)
            return
        }
        write(line)
        flushIfNeeded()
    }

    private func writeHeldEvents() {
        guard let context, !lineOpen else { return }
        while context.channel.isWritable, let line = heldEvents.popFirst() { write(line) }
        flushIfNeeded()
    }

    // MARK: Batches

    /// A part of a batch's answer line; `end` ends the line.
    private func writePart(_ part: ByteBuffer, end: Bool) {
        guard !closed, let context else { return }
        if end {
            var part = part
            part.writeInteger(UInt8(ascii: "\n"))
            context.write(wrapOutboundOut(part), promise: nil)
        } else {
            context.write(wrapOutboundOut(part), promise: nil)
        }
        needsFlush = true
        lineOpen = !end
        flushIfNeeded()
        if end { writeHeldEvents() }
    }

    /// Calls `resume` once the peer has taken what is pending (at once if it has, or if the
    /// connection is gone).
    private func whenWritable(_ resume: @escaping @Sendable () -> Void) {
        guard !closed, let context, !context.channel.isWritable else { return resume() }
        writableWaiter = resume
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
        checkUnsent()
    }

    /// After a flush, what the peer has not taken stays in the channel: past
    /// `max-unsent-bytes` the connection is closed (and logged once), whatever it still had
    /// to answer.
    ///
    /// A writable channel holds at most NIO's default high-water mark (64 KiB), which is the
    /// setting's lowest value: only a channel that stopped being writable is asked (asking
    /// took as long as the rest of the write's bookkeeping, on every answer).
    private func checkUnsent() {
        guard !closed, let context, !context.channel.isWritable, let options = context.channel.syncOptions,
            let unsent = try? options.getOption(ChannelOptions.bufferedWritableBytes)
        else { return }
        let limit = gate.limits.maxUnsentBytes
        guard unsent > limit else { return }
        logger.warning(
            "connection closed: max-unsent-bytes reached",
            metadata: ["uid": "\(caller.uid)", "pid": "\(caller.pid)", "unsent": "\(unsent)", "max": "\(limit)"])
        closeNow()
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
        cancelLineTimer()
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer()), promise: flushed)
        let channel = context.channel
        flushed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// Closes without waiting for the peer: what the socket took already still reaches it.
    private func closeNow() {
        guard let context, !closed else { return }
        needsFlush = false
        context.flush()
        closed = true
        cancelLineTimer()
        context.channel.close(promise: nil)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
