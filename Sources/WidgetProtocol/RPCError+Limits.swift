import WidgetCore

extension RPCError {
    /// `-32014`: a limit of `[limits]` (or `[providers] preview-launches-per-minute`) would be
    /// exceeded; nothing changed. The message names the limit, its value and the setting; `data` has `limit` (the key) and `max`, and
    /// `actual` (and `entry`) when the request asked for a size.
    public static func limitExceeded(_ exceeded: LimitExceeded) -> RPCError {
        var data: [String: JSONValue] = ["limit": .string(exceeded.setting), "max": .integer(Int64(exceeded.max))]
        if let actual = exceeded.actual { data["actual"] = .integer(Int64(actual)) }
        if let entry = exceeded.entry { data["entry"] = .integer(Int64(entry)) }
        return RPCError(code: Code.limitExceeded, message: exceeded.description, data: .object(data))
    }
}
