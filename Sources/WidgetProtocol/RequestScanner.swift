/// The fast path of `RequestDecoder`: reads the envelope of an ordinary request by hand and
/// finds where its `params` object lies, so the params are read once, from their own bytes
/// (by `ScannableParams.scan`, or `JSONDecoder` for the other methods).
///
/// It accepts only what is plainly valid (see `JSONCursor`): an integer id of at most 18
/// digits or a string id, keys without escapes, `jsonrpc` exactly `"2.0"`, no duplicate
/// envelope member. Anything else, including every line that deserves an error, answers nil
/// and goes through the general decoder, so error answers come from one place.
/// `scripts/fuzz` checks that the two agree on every input the fast path accepts.
enum RequestScanner {
    struct Envelope {
        var id: RPCID?
        var hasID: Bool
        var method: String
        /// Where the `params` object lies; nil when absent or null.
        var params: Range<Int>?
    }

    static func envelope(_ bytes: UnsafeRawBufferPointer) -> Envelope? {
        var cursor = JSONCursor(bytes)
        var seen = SeenKeys()
        var isVersion2 = false
        var method: String?
        var id: RPCID?
        var hasID = false
        var params: Range<Int>?
        let ok = cursor.object { cursor, key in
            switch key {
            case "jsonrpc":
                cursor.skipSpace()
                guard seen.first(0), let range = cursor.stringContent(allowEscapes: false) else { return false }
                isVersion2 = "2.0" ~= JSONKey(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
            case "method":
                cursor.skipSpace()
                guard seen.first(1), let range = cursor.stringContent(allowEscapes: false) else { return false }
                method = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            case "id":
                guard seen.first(2) else { return false }
                hasID = true
                cursor.skipSpace()
                if cursor.peek == UInt8(ascii: "\"") {
                    guard let range = cursor.stringContent(allowEscapes: false) else { return false }
                    id = .string(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
                } else if !cursor.null() {
                    guard let number = cursor.integer() else { return false }
                    id = .number(number)
                }
            case "params":
                guard seen.first(3) else { return false }
                cursor.skipSpace()
                if cursor.null() { return true }
                let start = cursor.index
                guard cursor.peek == UInt8(ascii: "{"), cursor.skipValue() else { return false }
                params = start..<cursor.index
            default:
                // `JSONDecoder` ignores other members, and so duplicates of them.
                return cursor.skipValue()
            }
            return true
        }
        guard ok, cursor.atEnd(), isVersion2, let method else { return nil }
        return Envelope(id: id, hasID: hasID, method: method, params: params)
    }

    /// Where each member of a batch line lies, when the whole line is plainly valid; `[]`
    /// for an empty array. Each member is then read as a request line of its own.
    static func batchMembers(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var cursor = JSONCursor(bytes)
        var members: [Range<Int>] = []
        let ok = cursor.array { cursor in
            cursor.skipSpace()
            let start = cursor.index
            guard cursor.skipValue() else { return false }
            members.append(start..<cursor.index)
            return true
        }
        guard ok, cursor.atEnd() else { return nil }
        return members
    }
}
