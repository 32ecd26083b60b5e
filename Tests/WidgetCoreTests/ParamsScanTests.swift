import Foundation
import Testing
import WidgetCore
@testable import WidgetProtocol
@testable import WidgetTestSupport

/// The params scanners against `JSONDecoder`: a value a scanner gives is the one the
/// decoder gives (`==`, and the same JSON once encoded); where a scanner gives up, the
/// request's error is the general decoder's, word for word. Each table also says which
/// inputs must take the fast path, so ordinary requests do not quietly fall back.
/// `scripts/fuzz` runs the same comparison on mutated inputs.
@Suite("Params scanners")
struct ParamsScanTests {
    /// Params text, and whether the scanner must read it (false: it must give up).
    typealias Case = (params: String, fast: Bool)

    static let reloadCases: [Case] = [
        (#"{"kinds":["com.example.quote"]}"#, true),
        (#"{"kinds":[],"userInitiated":true}"#, true),
        (#"{ "userInitiated" : null , "kinds" : [ "a" , "b" ] }"#, true),
        (#"{"kinds":["é😀"],"extra":{"a":[1,2.5,null,"\u0041"]}}"#, false),  // `\u` anywhere: general
        (#"{"kinds":["é😀"],"extra":{"a":[1,2.5,null,{}]}}"#, true),
        (#"{"kinds":["a\"b\\c\/d\n\t"]}"#, true),
        (#"{"instances":["w-1","w-2"],"userInitiated":true}"#, true), (#"{"kinds":["a"],"instances":null}"#, true),
        (#"{"instances":["w-1"],"instances":["w-2"]}"#, false), (#"{"instances":"w-1"}"#, false),
        ("{}", true), (#"{"kinds":"k"}"#, false), (#"{"kinds":null}"#, false), (#"{"kinds":["a",1]}"#, false),
        (#"{"kinds":["a"],"userInitiated":1}"#, false), (#"{"kinds":["a"],"kinds":["b"]}"#, false),
        (#"{"kinds":["\u0041"]}"#, false), (#"{"kind\u0073":["a"]}"#, false), (#"{"kinds":["a"],}"#, false),
        ("{\"kinds\":[\"tab\there\"]}", false), (#"{"kinds":["a"],"x":1e400}"#, true), (#"{"kinds":["a"],"x":01}"#, false),
    ]

    static let donateCases: [Case] = [
        (#"{"intentType":"RandomNumber"}"#, true),
        (
            #"{"intentType":"T","parameters":{"n":-1,"ok":true,"x":null,"s":"a\"b\/c","f":2.5,"e":1e2,"z":1e-400,"big":1e19,"neg0":-0,"two":2.0,"tiny":1e-7,"arr":[1,[2,{"k":"v"}]]},"date":"2026-01-05T12:00:00+09:00","id":"d1","group":"g"}"#,
            true
        ),
        (#"{"intentType":"T","parameters":null,"date":null,"id":null,"group":null}"#, true),
        (#"{"intentType":"T","date":"2026-01-05T08:00:00.255Z"}"#, true),
        (#"{"intentType":"T","date":"2026-02-30T00:00:00Z"}"#, true),
        (#"{"intentType":"T","date":"2026-01-05T24:00:00-00:00"}"#, true),
        (#"{"intentType":"T","date":"1850-01-05T08:00:00+14:30"}"#, true),
        (#"{"intentType":"T","date":"yesterday"}"#, false), (#"{"parameters":{}}"#, false),
        (#"{"intentType":"T","parameters":{"a":1,"a":2}}"#, false), (#"{"intentType":"T","parameters":{"n":1e400}}"#, false),
        (#"{"intentType":"T","parameters":{"n":12345678901234567890}}"#, false),
        (#"{"intentType":"T","parameters":{"n":9007199254740993.0}}"#, false),
        (#"{"intentType":"T","parameters":[1]}"#, false), (#"{"intentType":5}"#, false),
        ("{\"intentType\":\"T\",\"parameters\":{\"\u{E9}\":1,\"e\u{301}\":2}}", false),
        (#"{"intentType":"T","date":"2026-01-05T08:00:00Z","date":"2026-01-06T08:00:00Z"}"#, false),
    ]

    static let pushCases: [Case] = [
        (
            #"{"id":"1a2b3c4d","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"text":"hi","n":[1,2.5,null,true]},"relevance":{"score":0.8,"duration":3600}}],"policy":{"after":"2026-01-05T10:00:00Z"}}}"#,
            true
        ),
        (
            #"{"timeline":{"policy":"never","entries":[{"date":"2026-01-05T09:00:00Z","content":"b"},{"date":"2026-01-05T08:00:00Z","content":"a"},{"date":"2026-01-05T09:00:00Z","content":"c"}]},"id":"x"}"#,
            true
        ),
        (
            #"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"z":1,"B":{"y":[],"a":{}},"a":"\/","_":2.0,"1":1e-7,"é":"é","aa":-0,"a_":null}}]}}"#,
            true
        ),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z"},{"date":"2026-01-05T09:00:00Z","content":null}],"policy":null}}"#, true),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":-0,"duration":null}}],"policy":"atEnd"}}"#, true),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":1e-400}}]}}"#, false),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":1,"duration":-1}}]}}"#, false),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":"high"}}]}}"#, false),
        (#"{"id":"x","timeline":{"entries":[],"policy":"sometimes"}}"#, false),
        (#"{"id":"x","timeline":{"entries":[],"policy":{"after":null}}}"#, false),
        (#"{"id":"x","timeline":{"policy":"never"}}"#, false),
        (#"{"id":"x","timeline":{"entries":[{"content":1}]}}"#, false),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"a":1,"a":2}}]}}"#, false),
        (#"{"id":"x","timeline":{"entries":[{"date":"2026-01-05T08:00:00Z","content":"\u00e9"}]}}"#, false),
        (#"{"timeline":{"entries":[]}}"#, false),
    ]

    static let visibleCases: [Case] = [
        (#"{"instances":["a","b"]}"#, true), (#"{"instances":[],"x":{"y":[1]}}"#, true), (#"{"instances":null}"#, false),
        ("{}", false), (#"{"instances":["a"],"instances":["b"]}"#, false), (#"{"instances":[1]}"#, false),
    ]

    static let instanceCases: [Case] = [
        (#"{"id":"1a2b3c4d"}"#, true), (#"{"id":null}"#, false), (#"{"id":"a","id":"b"}"#, false),
    ]

    @Test(arguments: reloadCases) func reloadTimelines(_ item: Case) throws {
        try check(ReloadTimelinesParams.self, item)
    }

    @Test(arguments: donateCases) func donate(_ item: Case) throws {
        try check(DonateParams.self, item)
    }

    @Test(arguments: pushCases) func push(_ item: Case) throws {
        try check(PushParams.self, item)
        // The access check reads the instance of a push first.
        try check(InstanceParams.self, (item.params, item.params.contains(#""id":""#) && !item.params.contains(#"\u"#)))
    }

    @Test(arguments: visibleCases) func visible(_ item: Case) throws { try check(VisibleParams.self, item) }
    @Test(arguments: instanceCases) func instance(_ item: Case) throws { try check(InstanceParams.self, item) }

    /// Only the hot set is scanned; every other method's params go through `JSONDecoder`.
    @Test func coldParamsHaveNoScanner() {
        func scannable<P>(_ type: P.Type) -> Bool { P.self is any ScannableParams.Type }
        #expect(!scannable(EmptyParams.self))
        #expect(!scannable(ReloadAllParams.self))
        #expect(!scannable(StackNameParams.self))
        #expect(scannable(ReloadTimelinesParams.self) && scannable(DonateParams.self) && scannable(PushParams.self))
        #expect(scannable(VisibleParams.self) && scannable(InstanceParams.self))
    }

    /// Requests without params read as `{}`; `ping`, `status` and `subscribe` never decode.
    @Test func absentParams() throws {
        for line in [#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#] {
            let request = try RequestDecoder.decode(Data(line.utf8)).get()
            #expect(!request.hasParams)
            #expect(try request.params(EmptyParams.self) == EmptyParams())
            #expect(try request.params(ReloadAllParams.self) == ReloadAllParams())
            #expect(try request.params(ReloadTimelinesParams.self) == ReloadTimelinesParams())
            #expect(throws: RPCError.invalidParams("params.id: required")) { try request.params(InstanceParams.self) }
        }
    }

    /// The generic `params` finds the scanner at run time: same values, same errors.
    @Test func dynamicLookupGivesTheSameValue() throws {
        func viaDecodable<P: Decodable>(_ request: IncomingRequest, _ type: P.Type) throws(RPCError) -> P {
            try request.params(type)
        }
        let line = #"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"intentType":"T","parameters":{"n":5}}}"#
        let request = try RequestDecoder.decode(Data(line.utf8)).get()
        #expect(try viaDecodable(request, DonateParams.self) == request.params(DonateParams.self))
        #expect(try viaDecodable(request, DonateParams.self) == request.params(DonateParams.self, fastPath: false))
        #expect(throws: RPCError.invalidParams("params.id: required")) { try viaDecodable(request, InstanceParams.self) }
    }

    /// The dates the scanners compute themselves are the ones `ISO8601.date(from:)` parses.
    @Test func wholeSecondDatesMatchFoundation() {
        var random = SplitMix64(seed: 12)
        for _ in 0..<3000 {
            let year = Int.random(in: 1900...9999, using: &random)
            let text = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", year, Int.random(in: 1...12, using: &random),
                Int.random(in: 1...28, using: &random), Int.random(in: 0...23, using: &random),
                Int.random(in: 0...59, using: &random), Int.random(in: 0...59, using: &random))
                + (Bool.random(using: &random)
                    ? "Z"
                    : String(
                        format: "%@%02d:%02d", Bool.random(using: &random) ? "+" : "-", Int.random(in: 0...14, using: &random),
                        Int.random(in: 0...59, using: &random)))
            let fast = Array(text.utf8).withUnsafeBytes { JSONCursor.wholeSecondDate($0) }
            #expect(fast != nil && fast == ISO8601.date(from: text), "\(text)")
        }
        for text in ["2024-02-29T12:00:00Z", "2100-12-31T23:59:59-14:59", "1900-01-01T00:00:00+00:00"] {
            #expect(Array(text.utf8).withUnsafeBytes { JSONCursor.wholeSecondDate($0) } == ISO8601.date(from: text))
        }
        // Left to Foundation, which is more lenient.
        for text in ["2023-02-29T12:00:00Z", "2026-01-05T24:00:00Z", "2026-01-05T08:00:00+15:00", "2026-01-05T08:00:00.5Z"] {
            #expect(Array(text.utf8).withUnsafeBytes { JSONCursor.wholeSecondDate($0) } == nil)
        }
    }

    // MARK: Comparing

    private func check<P: ScannableParams & Encodable>(_ type: P.Type, _ item: Case) throws {
        let data = Data(item.params.utf8)
        let scanned = data.withUnsafeBytes { P.scan($0) }
        #expect((scanned != nil) == item.fast, "\(P.self) scan of \(item.params)")
        if let scanned {
            let decoded = try WidgetJSON.decoder.decode(P.self, from: data)
            #expect(Self.same(scanned, decoded), "\(P.self) from \(item.params)")
            #expect(try Self.json(scanned) == Self.json(decoded))
        }
        // Through a request, fast against general: the same value or the same error.
        let line = #"{"jsonrpc":"2.0","id":1,"method":"m","params":\#(item.params)}"#
        let fast = outcome(RequestDecoder.decode(Data(line.utf8)), P.self, fastPath: true)
        let general = outcome(RequestDecoder.decode(Data(line.utf8), fastPath: false), P.self, fastPath: false)
        #expect(fast == general, "\(P.self) request with \(item.params)")
    }

    private func outcome<P: ScannableParams & Encodable>(
        _ decoded: Result<IncomingRequest, RequestFailure>, _ type: P.Type, fastPath: Bool
    ) -> String {
        switch decoded {
        case .failure(let failure): return "request error: \(failure.error)"
        case .success(let request):
            let value: P
            do {
                value = try request.params(P.self, fastPath: fastPath)
            } catch {
                return "error: \(error.code) \(error.message)"
            }
            return (try? Self.json(value)) ?? "not encodable"
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try WidgetJSON.encoder.encode(value), as: UTF8.self)
    }

    /// `==` where the type has it (all the hot params do); the JSON comparison covers the rest.
    static func same<P>(_ lhs: P, _ rhs: P) -> Bool {
        guard let lhs = lhs as? any Equatable else { return true }
        return lhs.isEqual(to: rhs)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
