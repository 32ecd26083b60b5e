/// Redis's protocol (RESP2), as much as the load generator needs: commands out as arrays of
/// bulk strings, replies in as simple strings (`+PONG`), integers (`:1`), errors (`-ERR …`),
/// bulk strings and arrays.
enum RESPReply {
    /// Appends `*N\r\n$len\r\narg\r\n…`, the form redis-benchmark and clients send.
    static func appendCommand(_ arguments: [[UInt8]], to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "*"))
        appendDecimal(arguments.count, to: &buffer)
        buffer.append(contentsOf: crlf)
        for argument in arguments {
            buffer.append(UInt8(ascii: "$"))
            appendDecimal(argument.count, to: &buffer)
            buffer.append(contentsOf: crlf)
            buffer.append(contentsOf: argument)
            buffer.append(contentsOf: crlf)
        }
    }

    static func command(_ arguments: [String]) -> [UInt8] {
        var buffer: [UInt8] = []
        appendCommand(arguments.map { Array($0.utf8) }, to: &buffer)
        return buffer
    }

    private static let crlf: [UInt8] = [13, 10]

    /// Where the reply starting at `start` ends (exclusive), nil when it is not all there yet.
    static func end(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count, let lineEnd = lineEnd(in: buffer, from: start) else { return nil }
        switch buffer[start] {
        case UInt8(ascii: "$"):
            guard let length = integer(buffer[(start + 1)..<(lineEnd - 2)]) else { return lineEnd }
            if length < 0 { return lineEnd }
            let end = lineEnd + length + 2
            return end <= buffer.count ? end : nil
        case UInt8(ascii: "*"):
            guard let count = integer(buffer[(start + 1)..<(lineEnd - 2)]), count > 0 else { return lineEnd }
            var next = lineEnd
            for _ in 0..<count {
                guard let end = end(in: buffer, from: next) else { return nil }
                next = end
            }
            return next
        default:
            // +simple, -error, :integer, and anything unknown: one line.
            return lineEnd
        }
    }

    /// Success when the reply's first line (without CRLF) is `expected`.
    static func judge(_ reply: ArraySlice<UInt8>, expected: String) -> WireFraming.Verdict {
        let line = reply.prefix(while: { $0 != 13 })
        if line.elementsEqual(expected.utf8) { return .success }
        let text = String(decoding: line.prefix(300), as: UTF8.self)
        return .failure(line.first == UInt8(ascii: "-") ? "error reply: \(text)" : "reply \(text), expected \(expected)")
    }

    /// The index just past the CRLF of the line starting at `start`.
    private static func lineEnd(in buffer: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index + 2 }
            index += 1
        }
        return nil
    }

    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        Int(String(decoding: digits, as: UTF8.self))
    }
}
