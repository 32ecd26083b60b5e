import WidgetProtocol
import WidgetCore
@testable import WidgetTestSupport

/// One line for the daemon (without its newline) and what must come back for it.
struct HostileFrame {
    var bytes: [UInt8]
    var expected: Expected
    var category: Category

    enum Expected {
        /// A notification, or a blank line: nothing comes back.
        case silence
        /// One answer. Its id is `id` or null (null when the line could not be read that far);
        /// `codes`, when given, are the only error codes allowed (empty: a result is due).
        case answer(id: CleanID?, codes: Set<Int>?)
        /// A JSON-RPC batch: one line holding an array of answers, one per member.
        case batch
        /// Either of the two: an array nested deep may be a batch of one too-deep member, or a
        /// line the parser gives up on.
        case answerOrBatch(codes: Set<Int>)
    }

    enum CleanID: Equatable {
        case number(Int)
        case string(String)
    }

    enum Category: String, CaseIterable {
        case valid, mutatedParams, notification, hostileID, envelope, truncated, randomBytes, brokenToken,
            invalidUTF8, extremeValue, hugeString, deepNesting, notAnObject, blank
    }
}

/// Builds hostile frames from a seed: the same seed gives the same frames.
struct HostileFrameGenerator {
    private var rng: SplitMix64
    private let templates: RequestTemplates
    private let methods = Methods.all
    private let lane: Int
    private var serial = 0

    init(seed: UInt64, lane: Int, victim: String) {
        rng = SplitMix64(seed: seed &+ UInt64(lane) &* 0x1_0000_0001)
        self.lane = lane
        templates = RequestTemplates(victim: victim)
    }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { rng.chance(p) }

    /// A fresh id, unique in the campaign, so an answer out of order cannot pass for the right one.
    private mutating func cleanID() -> (RawJSON, HostileFrame.CleanID) {
        serial += 1
        let number = lane * 10_000_000 + serial
        if chance(0.5) { return (.text(String(number)), .number(number)) }
        return (.string("L\(number)"), .string("L\(number)"))
    }

    private mutating func request(_ method: any MethodSpec.Type, id: RawJSON?) -> RawJSON {
        var members: [(key: String, value: RawJSON)] = [("jsonrpc", .string("2.0"))]
        if let id { members.append(("id", id)) }
        members.append(("method", .string(method.name)))
        if let params = templates.params(method) {
            members.append(("params", params))
        } else if chance(0.2) {
            members.append(("params", .object([])))
        }
        // Member order must not matter.
        if chance(0.2) { members.shuffle(using: &rng) }
        return .object(members)
    }

    /// Replaces (or removes) one value somewhere in `params`.
    private mutating func mutateParams(_ request: RawJSON, with pool: [RawJSON]) -> RawJSON {
        guard let params = request.member("params") else {
            return request.setting("params", to: .object([("unexpected", rng.pick(pool))]))
        }
        let paths = params.paths(depth: 4)
        guard !paths.isEmpty else { return request.setting("params", to: .object([("extra", rng.pick(pool))])) }
        let path = rng.pick(paths)
        let mutated: RawJSON
        switch int(0..<10) {
        case 0: mutated = params.replacing(path[...], with: nil)
        case 1: mutated = params.setting("unexpected", to: rng.pick(pool))
        default: mutated = params.replacing(path[...], with: rng.pick(pool))
        }
        return request.setting("params", to: mutated)
    }

    /// Puts `value` in place of one value of `params`, or of the id-less envelope members.
    private mutating func plant(_ value: RawJSON, in request: RawJSON) -> RawJSON {
        if let params = request.member("params"), chance(0.85) {
            let paths = params.paths(depth: 4)
            if !paths.isEmpty { return request.setting("params", to: params.replacing(rng.pick(paths)[...], with: value)) }
        }
        return request.setting(rng.pick(["params", "extra", "method", "jsonrpc"]), to: value)
    }

    mutating func next() -> HostileFrame {
        let method = rng.pick(methods)
        let roll = int(0..<1000)
        let (id, clean) = cleanID()
        let answered = HostileFrame.Expected.answer(id: clean, codes: nil)
        switch roll {
        case 0..<80:
            return HostileFrame(bytes: request(method, id: id).encoded, expected: answered, category: .valid)
        case 80..<500:
            var frame = request(method, id: id)
            for _ in 0..<(chance(0.7) ? 1 : int(2..<4)) {
                frame = mutateParams(frame, with: chance(0.7) ? HostileValues.plain : HostileValues.extreme)
            }
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .mutatedParams)
        case 500..<560:
            // Only plain values: the line must parse, or it would be answered after all.
            var frame = request(method, id: nil)
            if chance(0.5) { frame = mutateParams(frame, with: HostileValues.plain) }
            return HostileFrame(bytes: frame.encoded, expected: .silence, category: .notification)
        case 560..<640:
            let frame = request(method, id: rng.pick(HostileValues.ids))
            return HostileFrame(bytes: frame.encoded, expected: .answer(id: nil, codes: nil), category: .hostileID)
        case 640..<700:
            var frame = request(method, id: id)
            switch int(0..<5) {
            case 0: frame = frame.setting("method", to: chance(0.2) ? nil : rng.pick(HostileValues.methods))
            case 1: frame = frame.setting("jsonrpc", to: chance(0.2) ? nil : rng.pick(HostileValues.versions))
            case 2: frame = frame.setting("params", to: rng.pick(HostileValues.params))
            case 3: frame = frame.setting("extra", to: rng.pick(HostileValues.plain + HostileValues.extreme))
            default: frame = frame.setting("method", to: .string("fuzz.\(method.name)"))
            }
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .envelope)
        case 700..<770:
            // A prefix of an object is never a whole JSON text.
            var bytes = mutateParams(request(method, id: id), with: HostileValues.plain).encoded
            bytes.removeLast(int(1..<bytes.count))
            return HostileFrame(bytes: bytes, expected: .answer(id: nil, codes: [-32700]), category: .truncated)
        case 770..<820:
            let bytes = (0..<int(1..<400)).map { _ in UInt8.random(in: 0...255, using: &rng) }.filter { $0 != 0x0A }
            return HostileFrame(
                bytes: bytes, expected: Self.isBlank(bytes) ? .silence : .answer(id: nil, codes: [-32700, -32600]),
                category: .randomBytes)
        case 820..<860:
            let frame = plant(rng.pick(HostileValues.broken), in: request(method, id: id))
            // Any answer: the daemon's JSON reader checks a number's syntax only when a member
            // is read, so a broken number in a member nobody reads passes.
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .brokenToken)
        case 860..<900:
            var bytes = mutateParams(request(method, id: id), with: [.string("before-after")]).encoded
            let at = bytes.indices.filter { bytes[$0] == UInt8(ascii: "-") }.last ?? bytes.count / 2
            bytes.insert(contentsOf: rng.pick(HostileValues.invalidUTF8), at: at)
            return HostileFrame(bytes: bytes, expected: .answer(id: clean, codes: nil), category: .invalidUTF8)
        case 900..<950:
            let frame = plant(rng.pick(HostileValues.extreme), in: request(method, id: id))
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .extremeValue)
        case 950..<953:
            // Up to 900 KB (150,000 six-byte escapes): under the line limit.
            let huge = RawJSON.string(String(repeating: rng.pick(["a", "é", "\\\"", "\\u20ac", " "]), count: int(10_000..<150_000)))
            let frame = plant(huge, in: request(method, id: id))
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .hugeString)
        case 953..<970:
            let depth = rng.pick([100, 255, 256, 257, 511, 512, 513, 1000, 10_000, 100_000])
            let open: [UInt8] = Array((chance(0.5) ? "[" : "{\"a\":").utf8)
            let close: [UInt8] = Array((open.count == 1 ? "]" : "}").utf8)
            var nested: [UInt8] = []
            nested.reserveCapacity(depth * (open.count + 1))
            for _ in 0..<depth { nested.append(contentsOf: open) }
            if open.count > 1 { nested.append(contentsOf: Array("1".utf8)) }
            for _ in 0..<depth { nested.append(contentsOf: close) }
            if chance(0.5) {
                let expected: HostileFrame.Expected = open.count == 1
                    ? .answerOrBatch(codes: [-32700, -32600]) : .answer(id: nil, codes: [-32700, -32600])
                return HostileFrame(bytes: nested, expected: expected, category: .deepNesting)
            }
            let frame = plant(.bytes(nested), in: request(method, id: id))
            return HostileFrame(bytes: frame.encoded, expected: answered, category: .deepNesting)
        case 970..<990:
            let text = rng.pick([
                "[]", "[1,2,3]", "\"ping\"", "42", "null", "true", "-0", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                "[[]]", "\"\"", "{}", "{\"id\":1}",
            ])
            // A non-empty array is a batch (answered by an array); an empty one is one error.
            let expected: HostileFrame.Expected = text.hasPrefix("[") && text != "[]" ? .batch : .answer(id: nil, codes: [-32600])
            return HostileFrame(bytes: Array(text.utf8), expected: expected, category: .notAnObject)
        default:
            let bytes: [UInt8] = Array(rng.pick(["", " ", "\t", "\r", "  \t \r"]).utf8)
            return HostileFrame(bytes: bytes, expected: .silence, category: .blank)
        }
    }

    /// The daemon skips lines of only spaces, tabs and carriage returns.
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
