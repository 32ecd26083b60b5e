/// Judging a JSON-RPC answer line without parsing it: only its `"id"`, and whether it has a
/// `"result"` or an `"error"`. A full parse per answer would make the load generator, not the
/// server, the thing measured.
enum JSONRPCAnswer {
    private static let idKey = Array(#""id":"#.utf8)
    private static let resultKey = Array(#""result":"#.utf8)
    private static let errorKey = Array(#""error":"#.utf8)

    static func classify(_ line: ArraySlice<UInt8>, expectedID: Int) -> WireFraming.Verdict {
        func text() -> String { String(decoding: line.prefix(300), as: UTF8.self) }
        guard let idAt = find(idKey, in: line) else { return .failure("unreadable answer: \(text())") }
        var index = idAt + idKey.count
        while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
        var id = 0
        var digits = 0
        while index < line.endIndex, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            id = id * 10 + Int(line[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0 else { return .failure("unreadable answer: \(text())") }
        guard id == expectedID else { return .failure("answer with another id: \(text())") }
        if find(errorKey, in: line) != nil { return .failure("error answer: \(text())") }
        if find(resultKey, in: line) != nil { return .success }
        return .failure("unreadable answer: \(text())")
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            if haystack[index] == needle[0] {
                var match = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    match = false
                    break
                }
                if match { return index }
            }
            index += 1
        }
        return nil
    }
}
