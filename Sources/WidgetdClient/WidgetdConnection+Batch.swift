import Foundation
import WidgetCore
import WidgetProtocol

/// JSON-RPC 2.0 batches: several calls in one line, their answers in one line back.
///
/// A host that shows widgets reports what is visible and reads its stacks in one round trip:
///
/// ```swift
/// let answers = try connection.batch([
///     BatchCall(Methods.Visible.self, VisibleParams(instances: shown)),
///     BatchCall(Methods.StackShow.self, StackNameParams(name: "home")),
///     BatchCall(Methods.StackShow.self, StackNameParams(name: "lock")),
/// ])
/// let home = try answers[1].result(of: Methods.StackShow.self)
/// ```
///
/// The daemon runs a batch's members in order (the visible report lands before the stacks
/// are read); each call's answer stands alone: one failing does not undo or stop the others.
/// Make `visible` a notification (`notification: true`) to skip its answer, and its errors.
extension WidgetdConnection {
    /// Sends `calls` as one batch and returns one answer per call, in the order of `calls`.
    /// A daemon error for one call is that call's `.error`; the call throws only when the
    /// batch as a whole fails: `.daemon` when the daemon refused it (one error for the
    /// line), `.badResponse` when the answers cannot be matched to the calls.
    public func batch(_ calls: [BatchCall]) throws(WidgetdClientError) -> [BatchAnswer] {
        try sendBatch(calls).answers
    }

    /// As `batch`, also giving the answer line as it came (nil when every call was a
    /// notification: the daemon answers nothing then, and nothing is waited for).
    public func sendBatch(_ calls: [BatchCall]) throws(WidgetdClientError) -> BatchReply {
        guard !calls.isEmpty else { return BatchReply(answers: [], ids: [], line: nil) }
        let ids = assignIDs(calls)
        var request: Data
        do {
            request = try RPCBatch.line(calls, ids: ids)
        } catch {
            throw .badResponse("request not encodable: \(error)")
        }
        request.append(UInt8(ascii: "\n"))
        let line: Data
        do {
            try send(request)
            if ids.allSatisfy({ $0 == nil }) { return BatchReply(answers: calls.map { _ in .notification }, ids: ids, line: nil) }
            line = try readLine()
        } catch {
            // As in `raw`: a daemon that refuses the connection may have written its one
            // error line before the request went out.
            guard case .connectionLost = error, let refusal = try? readLine() else { throw error }
            line = refusal
        }
        do {
            return BatchReply(answers: try RPCBatch.answers(line, ids: ids), ids: ids, line: line)
        } catch {
            switch error {
            case .refused(let refusal): throw .daemon(refusal)
            case .malformed(let reason): throw .badResponse(reason)
            }
        }
    }

    /// The calls' ids: their own, or the next free number; nil for notifications.
    private func assignIDs(_ calls: [BatchCall]) -> [RPCID?] {
        let taken = Set(calls.compactMap { $0.isNotification ? nil : $0.id })
        return calls.map { call in
            if call.isNotification { return nil }
            if let id = call.id { return id }
            var id: RPCID
            repeat {
                id = .number(nextID)
                nextID += 1
            } while taken.contains(id)
            return id
        }
    }
}

/// A batch's answers, and the line they came in.
public struct BatchReply: Sendable {
    public var answers: [BatchAnswer]
    /// The id each call went with (nil: a notification).
    public var ids: [RPCID?]
    /// As the daemon wrote it; nil when no answer was due.
    public var line: Data?
}

extension BatchAnswer {
    /// The result of a call of `spec`'s method; a daemon error throws `.daemon`.
    public func result<Spec: MethodSpec>(of spec: Spec.Type) throws(WidgetdClientError) -> Spec.Result {
        try decode(Spec.Result.self)
    }

    /// The call's result decoded as `R`; a daemon error throws `.daemon`.
    public func decode<R: Decodable>(_ type: R.Type = R.self) throws(WidgetdClientError) -> R {
        switch self {
        case .error(let error): throw .daemon(error)
        case .notification: throw .badResponse("a notification has no answer")
        case .result(let line):
            do {
                return try WidgetJSON.decoder.decode(RPCResultBox<R>.self, from: line).result
            } catch {
                throw .badResponse("\(error)")
            }
        }
    }
}
