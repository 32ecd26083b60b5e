import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// JSON-RPC 2.0 request lines (docs/protocol.md).
@Suite("Request decoder")
struct RequestDecoderTests {
    func decode(_ line: String) -> Result<IncomingRequest, RequestFailure> {
        RequestDecoder.decode(Data(line.utf8))
    }

    func failure(_ line: String) throws -> RequestFailure {
        switch decode(line) {
        case .success(let request): throw Unexpected(detail: "decoded \(request.method)")
        case .failure(let failure): return failure
        }
    }

    func request(_ line: String) throws -> IncomingRequest {
        try decode(line).get()
    }

    struct Unexpected: Error { var detail: String }

    /// The invalid-params error that decoding `params` as `P` raises.
    func paramsError<P: Decodable>(_ line: String, as type: P.Type) throws -> RPCError {
        let incoming = try request(line)
        do {
            _ = try incoming.params(type)
        } catch {
            return error
        }
        throw Unexpected(detail: "params decoded")
    }

    @Test(arguments: ["{", "", "hello", #"{"jsonrpc": "2.0", "method": }"#])
    func notJSONIsAParseError(line: String) throws {
        let failure = try failure(line)
        #expect(failure.error.code == -32700)
        #expect(failure.error.message == "parse error: not valid JSON")
        #expect(failure.id == nil)
    }

    @Test func invalidUTF8IsAParseError() throws {
        let bytes = Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
        guard case .failure(let failure) = RequestDecoder.decode(bytes) else {
            Issue.record("decoded invalid UTF-8")
            return
        }
        #expect(failure.error.code == -32700)
        #expect(failure.error.message == "parse error: not UTF-8")
    }

    @Test(arguments: [
        #"[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]"#,
        #""ping""#,
        "42",
        "null",
    ])
    func nonObjectIsAnInvalidRequest(line: String) throws {
        let failure = try failure(line)
        #expect(failure.error.code == -32600)
        #expect(failure.error.message == "invalid request: expected a JSON object")
    }

    @Test(arguments: [
        (#"{"jsonrpc": "2.0", "id": 7}"#, "invalid request: method must be a string"),
        (#"{"jsonrpc": "2.0", "id": 7, "method": 3}"#, "invalid request: method must be a string"),
        (#"{"jsonrpc": "1.0", "id": 7, "method": "ping"}"#, #"invalid request: jsonrpc must be "2.0""#),
        (#"{"id": 7, "method": "ping"}"#, #"invalid request: jsonrpc must be "2.0""#),
        (#"{"jsonrpc": 2.0, "id": 7, "method": "ping"}"#, #"invalid request: jsonrpc must be "2.0""#),
    ])
    func badEnvelopeIsAnInvalidRequestThatKeepsTheID(line: String, message: String) throws {
        let failure = try failure(line)
        #expect(failure.error.code == -32600)
        #expect(failure.error.message == message)
        // The id was readable, so the error answer can carry it.
        #expect(failure.id == .number(7))
    }

    @Test(arguments: [#"1.5"#, "true", #"{"n": 1}"#, "[1]"])
    func badIDTypesAreInvalidRequests(id: String) throws {
        let failure = try failure(#"{"jsonrpc": "2.0", "id": \#(id), "method": "ping"}"#)
        #expect(failure.error.code == -32600)
        #expect(failure.error.message == "invalid request: id must be an integer or a string")
        #expect(failure.id == nil)
    }

    @Test func integerAndStringIDs() throws {
        #expect(try request(#"{"jsonrpc": "2.0", "id": 42, "method": "ping"}"#).id == .number(42))
        #expect(try request(#"{"jsonrpc": "2.0", "id": -1, "method": "ping"}"#).id == .number(-1))
        #expect(try request(#"{"jsonrpc": "2.0", "id": "abc", "method": "ping"}"#).id == .string("abc"))
        #expect(try request(#"{"jsonrpc": "2.0", "id": "", "method": "ping"}"#).id == .string(""))
        let big = try request(#"{"jsonrpc": "2.0", "id": 9007199254740993, "method": "ping"}"#)
        #expect(big.id == .number(9_007_199_254_740_993))
        #expect(!big.isNotification)
    }

    @Test func requestWithoutIDIsANotification() throws {
        let incoming = try request(#"{"jsonrpc": "2.0", "method": "reloadAllTimelines"}"#)
        #expect(incoming.id == nil)
        #expect(incoming.isNotification)
        #expect(incoming.method == "reloadAllTimelines")
        #expect(!incoming.hasParams)
    }

    @Test(arguments: [#"[1, 2]"#, #""x""#, "5", "true"])
    func paramsThatAreNotAnObjectAreInvalidParams(params: String) throws {
        let failure = try failure(#"{"jsonrpc": "2.0", "id": "r1", "method": "add", "params": \#(params)}"#)
        #expect(failure.error.code == -32602)
        #expect(failure.error.message == "invalid params: params must be an object")
        #expect(failure.id == .string("r1"))
    }

    @Test func typedParamsDecode() throws {
        let incoming = try request(
            #"{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"kind": "com.example.clock", "family": "systemSmall", "configuration": {"n": 5}}}"#
        )
        #expect(incoming.hasParams)
        let params = try incoming.params(AddParams.self)
        #expect(params.kind == "com.example.clock")
        #expect(params.family == "systemSmall")
        #expect(params.configuration == ["n": .integer(5)])
    }

    @Test func nullParamsDecodeAsAnEmptyObject() throws {
        let incoming = try request(#"{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": null}"#)
        #expect(!incoming.hasParams)
        _ = try incoming.params(EmptyParams.self)
    }

    @Test func wrongTypeNamesTheField() throws {
        let error = try paramsError(
            #"{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"kind": "k", "family": 5}}"#, as: AddParams.self)
        #expect(error.code == -32602)
        #expect(error.message == "invalid params: params.family: expected a string")
    }

    @Test func missingFieldNamesIt() throws {
        let error = try paramsError(
            #"{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"family": "systemSmall"}}"#, as: AddParams.self)
        #expect(error.code == -32602)
        #expect(error.message == "invalid params: params.kind: required")
    }

    @Test func missingParamsNameTheRequiredField() throws {
        // No params at all decode as {}: the first required field is reported the same way.
        let error = try paramsError(#"{"jsonrpc": "2.0", "id": 1, "method": "remove"}"#, as: InstanceParams.self)
        #expect(error.code == -32602)
        #expect(error.message == "invalid params: params.id: required")
    }

    @Test func nestedFieldPathIsNamed() throws {
        let error = try paramsError(
            #"{"jsonrpc": "2.0", "id": 1, "method": "add", "params": {"kind": "k", "family": null}}"#, as: AddParams.self)
        #expect(error.code == -32602)
        #expect(error.message.hasPrefix("invalid params: params.family: "))
    }

    @Test func errorCodesMatchTheInterface() {
        #expect(RPCError.Code.parseError == -32700)
        #expect(RPCError.Code.invalidRequest == -32600)
        #expect(RPCError.Code.methodNotFound == -32601)
        #expect(RPCError.Code.invalidParams == -32602)
        #expect(RPCError.methodNotFound("nope").code == -32601)
        #expect(RPCError.unknownKind("k").data == .object(["kind": .string("k")]))
        #expect(RPCError.invalidParams("x").description == "invalid params: x (-32602)")
    }

    /// JSON-RPC 2.0: only a request without an `id` member is a notification.
    @Test func nullIDIsAnsweredNotANotification() throws {
        let incoming = try request(#"{"jsonrpc": "2.0", "id": null, "method": "ping"}"#)
        #expect(!incoming.isNotification)
        #expect(incoming.id == nil)
    }
}
