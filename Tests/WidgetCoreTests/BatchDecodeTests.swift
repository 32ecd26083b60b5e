import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// JSON-RPC 2.0 batches as `RequestDecoder.decodeLine` reads them: the specification's
/// examples (section 7), and the fast path against the general decoder on every line.
@Suite("Batch decoding")
struct BatchDecodeTests {
    func decode(_ line: String, fastPath: Bool = true) -> RequestLine {
        Data(line.utf8).withUnsafeBytes { RequestDecoder.decodeLine($0, fastPath: fastPath) }
    }

    func members(_ line: String) throws -> [Result<IncomingRequest, RequestFailure>] {
        guard case .batch(let members) = decode(line) else { throw Unexpected(line: line) }
        return members
    }

    func single(_ line: String) throws -> Result<IncomingRequest, RequestFailure> {
        guard case .single(let result) = decode(line) else { throw Unexpected(line: line) }
        return result
    }

    struct Unexpected: Error { var line: String }

    @Test func twoPingsAreABatchOfTwo() throws {
        let batch = try members(#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
        #expect(try batch.map { try $0.get().id } == [.number(1), .number(2)])
        #expect(try batch.allSatisfy { try $0.get().method == "ping" && !$0.get().isNotification })
    }

    // MARK: The specification's examples

    /// "rpc call Batch, invalid JSON": one parse error, not an array.
    @Test func invalidJSONIsOneParseError() throws {
        let line = #"[ {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method" ]"#
        let failure = try #require(try single(line).failureValue)
        #expect(failure.error == .parseError("not valid JSON"))
        #expect(failure.id == nil)
    }

    /// "rpc call with an empty Array": one invalid-request error, not an array.
    @Test(arguments: ["[]", " [ ] ", "\t[\n]\r\n"]) func emptyArrayIsOneInvalidRequest(line: String) throws {
        for fastPath in [true, false] {
            guard case .single(.failure(let failure)) = decode(line, fastPath: fastPath) else {
                Issue.record("\(line) was not one failure")
                continue
            }
            #expect(failure.error.code == -32600)
            #expect(failure.error.message == "invalid request: empty batch")
            #expect(failure.id == nil)
        }
    }

    /// "rpc call with an invalid Batch (but not empty)" and "with invalid Batch": an error
    /// per member, each what the member alone would get.
    @Test(arguments: ["[1]", "[1,2,3]"]) func invalidMembersEachGetAnError(line: String) throws {
        let batch = try members(line)
        #expect(batch.count == line.filter { $0.isNumber }.count)
        for member in batch {
            let failure = try #require(member.failureValue)
            #expect(failure.error == .invalidRequest("expected a JSON object"))
            #expect(failure.id == nil)
        }
    }

    /// "rpc call Batch": the mixed example. widgetd takes named params only, so the members
    /// with positional params are invalid params (with their ids); `{"foo": "boo"}` is an
    /// invalid request; the others decode (an unknown method is the daemon's -32601).
    @Test func mixedBatch() throws {
        let line = """
            [
                {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
                {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
                {"foo": "boo"},
                {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
                {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
            ]
            """
        let batch = try members(line)
        #expect(batch.count == 6)
        #expect(batch[0].failureValue?.error == .invalidParams("params must be an object"))
        #expect(batch[0].failureValue?.id == .string("1"))
        #expect(batch[1].failureValue?.error == .invalidParams("params must be an object"))
        #expect(batch[1].failureValue?.id == nil)
        // A notification all the same: the answer array has no member for it.
        #expect(batch[1].failureValue?.isNotification == true)
        #expect(batch[0].failureValue?.isNotification == false)
        #expect(batch[3].failureValue?.isNotification == false)
        #expect(batch[2].failureValue?.id == .string("2"))
        #expect(batch[3].failureValue?.error == .invalidRequest(#"jsonrpc must be "2.0""#))
        let fooGet = try batch[4].get()
        #expect(fooGet.method == "foo.get" && fooGet.id == .string("5"))
        #expect(try fooGet.params(StackNameParams.self) == StackNameParams(name: "myself"))
        #expect(try batch[5].get().id == .string("9"))
        #expect(try !batch[5].get().hasParams)
    }

    /// "rpc call Batch (all notifications)": every member a notification, so the daemon
    /// writes no answer line. The specification's example has positional params, which
    /// widgetd refuses; they are notifications all the same.
    @Test func allNotifications() throws {
        let example = #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#
        #expect(try members(example).allSatisfy { $0.failureValue?.isNotification == true })
        let line = #"[{"jsonrpc": "2.0", "method": "visible", "params": {"instances": ["a"]}}, {"jsonrpc": "2.0", "method": "ping"}]"#
        let batch = try members(line)
        #expect(try batch.allSatisfy { try $0.get().isNotification })
        #expect(try batch[0].get().params(VisibleParams.self) == VisibleParams(instances: ["a"]))
    }

    @Test func membersThatAreArraysAreInvalidRequests() throws {
        let batch = try members(#"[[], [{"jsonrpc":"2.0","id":1,"method":"ping"}], {"jsonrpc":"2.0","id":2,"method":"ping"}]"#)
        #expect(batch[0].failureValue?.error == .invalidRequest("expected a JSON object"))
        #expect(batch[1].failureValue?.error == .invalidRequest("expected a JSON object"))
        #expect(try batch[2].get().id == .number(2))
    }

    /// The requests keep their own copy: the socket's buffer may be reused at once.
    @Test func requestsOutliveTheBuffer() throws {
        let line = #"[{"jsonrpc":"2.0","id":1,"method":"visible","params":{"instances":["a1"]}},{"jsonrpc":"2.0","id":2,"method":"stack.show","params":{"name":"h\u00f6me"}}]"#
        var buffer = Array(line.utf8)
        let decoded = buffer.withUnsafeBytes { RequestDecoder.decodeLine($0) }
        for index in buffer.indices { buffer[index] = UInt8(ascii: " ") }
        guard case .batch(let batch) = decoded else { throw Unexpected(line: line) }
        #expect(try batch[0].get().params(VisibleParams.self) == VisibleParams(instances: ["a1"]))
        #expect(try batch[1].get().params(StackNameParams.self) == StackNameParams(name: "höme"))
    }

    // MARK: Fast against general

    static let lines: [String] = [
        #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        #" [ {"jsonrpc":"2.0","id":"v","method":"visible","params":{"instances":["a","b"]}} , {"jsonrpc":"2.0","id":3,"method":"stack.show","params":{"name":"home"}} ] "#,
        #"[{"jsonrpc":"2.0","id":"\u0041","method":"ping"},{"jsonrpc":"2.0","id":2,"method":"reloadTimelines","params":{"kinds":["k"]}}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"ping"},1,"x",null,{},[],{"jsonrpc":"1.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"params":{}}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]},{"jsonrpc":"2.0","id":1.5,"method":"ping"}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"donate","params":{"intentType":"T","date":"soon"}},{"jsonrpc":"2.0","method":"push","params":{"id":"x","timeline":{"entries":[]}}}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"ping"},]"#, #"[{"jsonrpc":"2.0","id":1,"method":"ping"}"#, #"[1] x"#, "[", "[,]", "[1,,2]",
        "\u{FEFF}[1]", #"[{"jsonrpc":"2.0","id":1,"method":"ping","x":"\uD800"}]"#, "[\"\\u00e9\", 1e400, -0, 01]",
        #"[{"a":"]"},{"b":"\\"},{"c":"\""}, "[{,}]"]"#,
    ]

    @Test(arguments: lines) func bothPathsAgree(line: String) {
        #expect(Self.describe(decode(line)) == Self.describe(decode(line, fastPath: false)), "\(line)")
    }

    /// Invalid UTF-8 inside a batch: the fast path leaves it to `JSONDecoder`.
    @Test func invalidUTF8() {
        let line = Data(#"[{"jsonrpc":"2.0","id":1,"method":"ping","x":""#.utf8) + Data([0xFF]) + Data(#""}]"#.utf8)
        let fast = line.withUnsafeBytes { RequestDecoder.decodeLine($0) }
        let general = line.withUnsafeBytes { RequestDecoder.decodeLine($0, fastPath: false) }
        #expect(Self.describe(fast) == Self.describe(general))
    }

    /// The daemon works a batch member by member (`batchMembers`): each decodes as
    /// `decodeLine` decodes it, and a line it does not cut (no array, an empty one, one only
    /// the general decoder reads) is left to `decodeLine`.
    @Test func membersDecodedInTheirTurnReadAsTheWholeLine() throws {
        let lines = RequestScannerTests.lines.map { "[" + $0 + "," + $0 + "]" } + Self.lines
        var cut = 0
        for line in lines {
            guard let members = Data(line.utf8).withUnsafeBytes({ RequestDecoder.batchMembers($0) }) else { continue }
            cut += 1
            let lazily = RequestLine.batch((0..<members.count).map { members.decode($0) })
            #expect(Self.describe(lazily) == Self.describe(decode(line)), "\(line)")
        }
        #expect(cut > lines.count / 2, "most lines are cut by the scanner")
        for line in ["[]", " [ ] ", #"{"jsonrpc":"2.0","method":"ping","id":1}"#, "[1,"] {
            #expect(Data(line.utf8).withUnsafeBytes({ RequestDecoder.batchMembers($0) }) == nil, "\(line)")
        }
    }

    /// A single line reads as `decode` reads it.
    @Test func singleLinesAsBefore() throws {
        for line in RequestScannerTests.lines where !line.hasPrefix("[") {
            let old = RequestDecoder.decode(Data(line.utf8))
            #expect(Self.describe(decode(line)) == Self.describe(.single(old)), "\(line)")
        }
    }

    /// Everything the daemon will look at, as text.
    static func describe(_ line: RequestLine) -> String {
        switch line {
        case .single(let result): "single " + describe(result)
        case .batch(let members): "batch " + members.map(describe).joined(separator: " | ")
        }
    }

    static func describe(_ result: Result<IncomingRequest, RequestFailure>) -> String {
        switch result {
        case .failure(let failure):
            return "error \(failure.id.map { "\($0)" } ?? "null") \(failure.error.code) \(failure.error.message) \(failure.isNotification)"
        case .success(let request):
            let params = [
                outcome(request, VisibleParams.self), outcome(request, StackNameParams.self),
                outcome(request, ReloadTimelinesParams.self), outcome(request, EmptyParams.self),
            ]
            return "ok \(request.id.map { "\($0)" } ?? "null") \(request.hasID) \(request.method) \(request.hasParams) \(params)"
        }
    }

    static func outcome<P: Decodable & Encodable>(_ request: IncomingRequest, _ type: P.Type) -> String {
        do {
            return String(decoding: try WidgetJSON.encoder.encode(request.params(type)), as: UTF8.self)
        } catch {
            return "\(error)"
        }
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
