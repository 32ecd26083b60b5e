import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Answers one request line (a request or a batch) for `caller`: decoded once, then each
    /// request run through its method's entry. `reply` gets the answer line, or nil when
    /// nothing is to be answered (notifications only).
    func serve(
        _ line: ByteBuffer, caller: PeerCredentials, connection: Subscriber?, reply: @escaping @Sendable (ByteBuffer?) -> Void
    ) {
        let decoded = line.withUnsafeReadableBytes { RequestDecoder.decodeLine($0) }
        switch decoded {
        case .single(let request):
            dispatch(request, caller: caller, connection: connection, reply: reply)
        case .batch(let requests):
            BatchRun(engine: self, requests: requests, caller: caller, connection: connection, reply: reply).next()
        }
    }

    /// One request of a line.
    func dispatch(
        _ decoded: Result<IncomingRequest, RequestFailure>, caller: PeerCredentials, connection: Subscriber?,
        reply: @escaping @Sendable (ByteBuffer?) -> Void
    ) {
        let request: IncomingRequest
        switch decoded {
        case .failure(let failure):
            // A notification is never answered, not even with an error.
            return reply(failure.isNotification ? nil : Answers.failure(failure.id, failure.error))
        case .success(let decoded):
            request = decoded
        }
        let call = Call(
            id: request.id, isNotification: request.isNotification, caller: caller,
            trusted: caller.uid == 0 || caller.uid == daemonUID, connection: connection, reply: reply)
        guard let entry = MethodTable.byName[request.method] else { return call.fail(.methodNotFound(request.method)) }
        entry.run(self, request, call)
    }
}

/// A JSON-RPC 2.0 batch being answered: its requests run one after the other, as if sent on
/// the connection in order, and their answers go out together as one array on one line
/// (notifications add nothing; a batch of notifications only is not answered).
final class BatchRun: @unchecked Sendable {
    // Used on the engine's loop only: each answer comes back there before the next request runs.
    private let engine: Engine
    private var requests: ArraySlice<Result<IncomingRequest, RequestFailure>>
    private let caller: PeerCredentials
    private let connection: Subscriber?
    private let reply: @Sendable (ByteBuffer?) -> Void
    private var answers: [ByteBuffer] = []
    private var running = false
    private var answeredInline = false

    init(
        engine: Engine, requests: [Result<IncomingRequest, RequestFailure>], caller: PeerCredentials, connection: Subscriber?,
        reply: @escaping @Sendable (ByteBuffer?) -> Void
    ) {
        self.engine = engine
        self.requests = requests[...]
        self.caller = caller
        self.connection = connection
        self.reply = reply
    }

    /// Runs the requests in order; an answer given inline lets the loop go on, one given later
    /// resumes it (no recursion, however long the batch).
    func next() {
        running = true
        defer { running = false }
        while let request = requests.popFirst() {
            answeredInline = false
            let loop = engine.loop
            engine.assumeIsolated { engine in
                engine.dispatch(request, caller: caller, connection: connection) { answer in
                    if loop.inEventLoop { self.collect(answer) } else { loop.execute { self.collect(answer) } }
                }
            }
            guard answeredInline else { return }
        }
        finish()
    }

    private func collect(_ answer: ByteBuffer?) {
        if let answer { answers.append(answer) }
        if running { answeredInline = true } else { next() }
    }

    private func finish() {
        guard !answers.isEmpty else { return reply(nil) }
        var line = ByteBuffer()
        line.reserveCapacity(answers.reduce(2) { $0 + $1.readableBytes + 1 })
        line.writeString("[")
        for (index, answer) in answers.enumerated() {
            if index > 0 { line.writeString(",") }
            line.writeImmutableBuffer(answer)
        }
        line.writeString("]")
        reply(line)
    }
}
