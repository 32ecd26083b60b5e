import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

/// A JSON-RPC 2.0 batch being answered: its requests run one after the other, as if sent on
/// the connection in order, and their answers go out together as one array on one line
/// (notifications add nothing; a batch of notifications only is not answered).
///
/// It is worked in slices so that one connection cannot hold the loop: after a slice the
/// answers so far go to `output` and the batch waits its turn in `SliceQueue`, so other
/// connections are read and answered in between, and a peer that does not read holds it
/// there (its answer does not pile up in the daemon).
final class BatchRun: @unchecked Sendable {
    // Used on the engine's loop only: each answer comes back there before the next request runs.
    private let engine: Engine
    private var requests: Requests
    private let caller: PeerCredentials
    private let connection: Subscriber?
    private let reply: @Sendable (ByteBuffer?) -> Void
    private let output: BatchOutput?
    /// The answers not yet written to `output` (all of them without one), already joined.
    private var part = ByteBuffer()
    private var answers = 0
    private var running = false
    private var answeredInline = false

    /// Requests in a slice, and the answer bytes or the time after which a slice ends early
    /// (requests differ a lot in cost: a `status` against a `list` of every instance).
    static let sliceRequests = 256
    static let sliceBytes = 64 * 1024
    static let sliceTime: Duration = .milliseconds(2)

    /// The requests still to run: decoded one by one as their turn comes, or decoded already
    /// (a batch only the general decoder reads).
    enum Requests {
        case undecoded(BatchMembers, next: Int)
        case decoded(ArraySlice<Result<IncomingRequest, RequestFailure>>)

        var isEmpty: Bool {
            switch self {
            case .undecoded(let members, let next): next >= members.count
            case .decoded(let requests): requests.isEmpty
            }
        }

        mutating func popFirst() -> Result<IncomingRequest, RequestFailure>? {
            switch self {
            case .undecoded(let members, let next):
                guard next < members.count else { return nil }
                self = .undecoded(members, next: next + 1)
                return members.decode(next)
            case .decoded(var requests):
                // Held once, so taking the first does not copy the rest.
                self = .decoded([])
                let first = requests.popFirst()
                self = .decoded(requests)
                return first
            }
        }
    }

    init(
        engine: Engine, requests: Requests, caller: PeerCredentials, connection: Subscriber?,
        reply: @escaping @Sendable (ByteBuffer?) -> Void, output: BatchOutput?
    ) {
        self.engine = engine
        self.requests = requests
        self.caller = caller
        self.connection = connection
        self.reply = reply
        self.output = output
    }

    /// Runs the requests in order; an answer given inline lets the loop go on, one given later
    /// resumes it (no recursion, however long the batch). A slice ends after
    /// `sliceRequests` requests, `sliceBytes` of answers or `sliceTime`.
    func next() {
        running = true
        defer { running = false }
        var worked = 0
        let clock = ContinuousClock()
        let start = clock.now
        while let request = requests.popFirst() {
            answeredInline = false
            let loop = engine.loop
            engine.assumeIsolated { engine in
                engine.dispatch(request, caller: caller, connection: connection) { answer in
                    if loop.inEventLoop { self.collect(answer) } else { loop.execute { self.collect(answer) } }
                }
            }
            guard answeredInline else { return }
            worked += 1
            if !requests.isEmpty,
                worked >= Self.sliceRequests || part.readableBytes >= Self.sliceBytes || clock.now - start >= Self.sliceTime
            {
                return pause()
            }
        }
        finish()
    }

    private func collect(_ answer: ByteBuffer?) {
        if let answer {
            part.writeString(answers == 0 ? "[" : ",")
            part.writeImmutableBuffer(answer)
            answers += 1
        }
        if running { answeredInline = true } else { next() }
    }

    /// Between slices: the answers so far go out, and the next slice waits for the peer to
    /// take them and for its turn after the other connections.
    private func pause() {
        let slices = engine.io.slices
        guard let output else { return slices.enqueue { self.next() } }
        if part.readableBytes > 0 {
            output.write(part, false)
            part = ByteBuffer()
        }
        output.whenWritable { slices.enqueue { self.next() } }
    }

    private func finish() {
        guard answers > 0 else { return reply(nil) }
        part.writeString("]")
        guard let output else { return reply(part) }
        output.write(part, true)
        part = ByteBuffer()
        reply(nil)
    }
}
