/// How the load generator finds the end of one answer and judges it: the only part of a run
/// that differs between widgetd and Redis (requests are bytes made beforehand).
enum WireFraming: Sendable {
    /// widgetd: one JSON object per line; an answer is right when it carries the request's
    /// id and a `"result"`.
    case jsonRPCLines
    /// Redis (RESP): one reply per request; right when its first line is `expected` (e.g.
    /// `+PONG`, or `:1` for a ZADD that added a member).
    case resp(expected: String)

    /// What one answer said.
    enum Verdict: Equatable, CustomStringConvertible {
        case success
        /// The server answered, but not what was asked for (an error, another id, `:0`).
        case failure(String)

        var description: String {
            switch self {
            case .success: "ok"
            case .failure(let text): text
            }
        }
    }

    /// Looks for one whole answer in `buffer[start...]`: nil when it has not all arrived yet,
    /// else where it ends (exclusive) and its verdict. `number` is the request's number (its
    /// JSON-RPC id).
    func nextAnswer(in buffer: [UInt8], from start: Int, number: Int) -> (end: Int, verdict: Verdict)? {
        switch self {
        case .jsonRPCLines:
            guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            return (newline + 1, JSONRPCAnswer.classify(buffer[start..<newline], expectedID: number))
        case .resp(let expected):
            guard let end = RESPReply.end(in: buffer, from: start) else { return nil }
            return (end, RESPReply.judge(buffer[start..<end], expected: expected))
        }
    }
}
