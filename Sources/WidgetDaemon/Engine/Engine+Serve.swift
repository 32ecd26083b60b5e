import Foundation
import NIOCore
import WidgetCore
import WidgetProtocol

extension Engine {
    /// Answers one request line (a request or a batch) for `caller`: decoded once, then each
    /// request run through its method's entry. `reply` gets the answer line, or nil when
    /// nothing is to be answered (notifications only). With `output`, a batch's answer is
    /// written there in parts as its slices are worked, and `reply` gets nil at its end.
    func serve(
        _ line: ByteBuffer, caller: PeerCredentials, connection: Subscriber?, reply: @escaping @Sendable (ByteBuffer?) -> Void,
        output: BatchOutput? = nil
    ) {
        // A batch is cut into its members here and each decoded in its turn.
        if let members = line.withUnsafeReadableBytes({ RequestDecoder.batchMembers($0) }) {
            let requests = BatchRun.Requests.undecoded(members, next: 0)
            return BatchRun(engine: self, requests: requests, caller: caller, connection: connection, reply: reply, output: output).next()
        }
        let decoded = line.withUnsafeReadableBytes { RequestDecoder.decodeLine($0) }
        switch decoded {
        case .single(let request):
            dispatch(request, caller: caller, connection: connection, reply: reply)
        case .batch(let requests):
            let requests = BatchRun.Requests.decoded(requests[...])
            BatchRun(engine: self, requests: requests, caller: caller, connection: connection, reply: reply, output: output).next()
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
