import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// The envelope fast path against the general decoder: for every line, both give the same
/// request or the same error, and the typed params decode to the same value or fail with the
/// same message. `scripts/fuzz` runs the same comparison on mutated inputs.
@Suite("Request scanner")
struct RequestScannerTests {
    static let lines: [String] = [
        // Ordinary requests, which the fast path takes.
        #"{"jsonrpc":"2.0","id":1,"method":"reloadTimelines","params":{"kinds":["com.example.quote"]}}"#,
        #"{ "jsonrpc" : "2.0" , "id" : "a-b" , "method" : "ping" }"#,
        #"{"method":"donate","params":{"intentType":"T","parameters":{"n":-1.5e3,"ok":true,"x":null,"s":"a\"b\\n"}},"id":-7,"jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"status","params":null}"#,
        #"{"jsonrpc":"2.0","method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":0,"method":"add","params":{"kind":"k","family":"systemSmall","extra":[[],{}]}}"#,
        // Params that decode badly: the same message either way.
        #"{"jsonrpc":"2.0","id":2,"method":"reloadTimelines","params":{"kinds":"k"}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"reloadTimelines","params":{}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"donate","params":{"intentType":"T","date":"yesterday"}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"reloadTimelines","params":{"kinds":["a",1]}}"#,
        // Lines the fast path leaves to the general decoder.
        #"{"jsonrpc":"2.0","id":"\u0041","method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"pïng"}"#,
        #"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":01,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":1}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1e400}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":NaN}}"#,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":\"tab\tin string\"}}",
        #"[1,2]"#, #"{}"#, "", "{",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":" + String(repeating: "[", count: 100)
            + String(repeating: "]", count: 100) + "}",
    ]

    @Test(arguments: lines)
    func bothPathsAgree(line: String) throws {
        let data = Data(line.utf8)
        let fast = RequestDecoder.decode(data)
        let general = RequestDecoder.decode(data, fastPath: false)
        switch (fast, general) {
        case (.success(let a), .success(let b)):
            #expect(a.id == b.id && a.hasID == b.hasID && a.method == b.method && a.hasParams == b.hasParams)
            #expect(outcome(a, ReloadTimelinesParams.self) == outcome(b, ReloadTimelinesParams.self))
            #expect(outcome(a, DonateParams.self) == outcome(b, DonateParams.self))
            #expect(outcome(a, AddParams.self) == outcome(b, AddParams.self))
        case (.failure(let a), .failure(let b)):
            #expect(a.id == b.id && a.error.code == b.error.code && a.error.message == b.error.message)
        default:
            Issue.record("the paths disagree: \(fast) against \(general)")
        }
    }

    /// The decoded params as JSON, or the error's text.
    private func outcome<P: Codable>(_ request: IncomingRequest, _ type: P.Type) -> String {
        do {
            let value = try request.params(type)
            return String(decoding: try WidgetJSON.encoder.encode(value), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }
}
