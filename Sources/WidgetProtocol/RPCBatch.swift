import Foundation
import WidgetCore

/// One call of a JSON-RPC 2.0 batch (`WidgetdConnection.batch`).
public struct BatchCall: Sendable {
    public var method: String
    /// Nil sends no `params` member (the same as `{}` to the daemon).
    public var params: (any Encodable & Sendable)?
    /// Sent without an id: the daemon runs it and answers nothing, not even an error.
    public var isNotification: Bool
    /// The id to send; nil lets the connection pick one. Ignored for a notification.
    public var id: RPCID?

    /// A call of `spec`'s method; its answer reads back with `BatchAnswer.result(of:)`.
    public init<Spec: MethodSpec>(_ spec: Spec.Type, _ params: Spec.Params, notification: Bool = false) {
        self.init(method: Spec.name, params: params, notification: notification)
    }

    /// A call of a method that takes no params.
    public init<Spec: MethodSpec>(_ spec: Spec.Type, notification: Bool = false) where Spec.Params == EmptyParams {
        self.init(method: Spec.name, params: EmptyParams(), notification: notification)
    }

    public init(method: String, params: (any Encodable & Sendable)?, notification: Bool = false, id: RPCID? = nil) {
        self.method = method
        self.params = params
        self.isNotification = notification
        self.id = id
    }
}

/// What the daemon answered to one call of a batch.
public enum BatchAnswer: Sendable {
    /// The answer object as the daemon wrote it (`{"id":...,"jsonrpc":"2.0","result":...}`).
    case result(Data)
    case error(RPCError)
    /// The call went as a notification: no answer comes.
    case notification

    public var error: RPCError? {
        if case .error(let error) = self { return error }
        return nil
    }
}

/// Why a batch's answer line could not be matched to its calls.
public enum BatchAnswerError: Error, Sendable {
    /// One error object instead of an array: the daemon refused the batch as a whole (not
    /// JSON, too long, or a daemon that predates batches: "-32600 expected a JSON object").
    case refused(RPCError)
    case malformed(String)
}

/// The wire side of a batch, apart from the socket so that it can be tested without one.
public enum RPCBatch {
    /// The batch line (without its newline). `ids[i]` is call i's id, nil for a notification.
    public static func line(_ calls: [BatchCall], ids: [RPCID?]) throws -> Data {
        try WidgetJSON.encoder.encode(zip(calls, ids).map { Member(id: $1, method: $0.method, params: $0.params) })
    }

    /// One answer per call, in the order of `calls`, matched by id (a daemon may answer a
    /// batch's members in any order). Calls that share an id take that id's answers in
    /// order. An error without an id (the daemon could not read that member's id) goes to
    /// the first call left without an answer.
    public static func answers(_ line: Data, ids: [RPCID?]) throws(BatchAnswerError) -> [BatchAnswer] {
        let heads: [RPCResponseHead]
        do {
            heads = try WidgetJSON.decoder.decode([RPCResponseHead].self, from: line)
        } catch {
            if let head = try? WidgetJSON.decoder.decode(RPCResponseHead.self, from: line), let error = head.error {
                throw .refused(error)
            }
            throw .malformed("expected an array of answers: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        let ranges = line.withUnsafeBytes { JSONSplitter.arrayMembers($0) } ?? []
        guard ranges.count == heads.count else { throw .malformed("the answer array could not be split") }
        var answers: [BatchAnswer?] = ids.map { $0 == nil ? .notification : nil }
        var unattributed: [RPCError] = []
        for (head, range) in zip(heads, ranges) {
            guard let id = head.id else {
                unattributed.append(head.error ?? RPCError(code: RPCError.Code.internalError, message: "an answer without an id"))
                continue
            }
            guard let index = ids.indices.first(where: { ids[$0] == id && answers[$0] == nil }) else {
                throw .malformed("an answer for id \(id), which no call waits for")
            }
            answers[index] = head.error.map(BatchAnswer.error) ?? .result(Data(line.slice(range)))
        }
        return try answers.enumerated().map { (index, answer) throws(BatchAnswerError) in
            if let answer { return answer }
            guard !unattributed.isEmpty else { throw .malformed("no answer for call \(index + 1)") }
            return .error(unattributed.removeFirst())
        }
    }

    /// A member as the daemon reads it: no `id` for a notification, no `params` when nil.
    private struct Member: Encodable {
        var id: RPCID?
        var method: String
        var params: (any Encodable & Sendable)?

        private enum CodingKeys: String, CodingKey { case jsonrpc, id, method, params }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("2.0", forKey: .jsonrpc)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(method, forKey: .method)
            if let params { try container.encode(params, forKey: .params) }
        }
    }
}
