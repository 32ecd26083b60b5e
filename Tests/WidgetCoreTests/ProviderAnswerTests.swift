import Foundation
import Testing
import WidgetCore
@testable import WidgetProtocol
@testable import WidgetTestSupport

/// A provider's `timeline` answer: the scan over its bytes against the reference path
/// (`JSONDecoder` through a `JSONValue` tree). Wherever the scan gives a value it is the
/// reference's, to the bit; where it gives up, the answer's error is the reference's, word
/// for word. `scripts/fuzz` runs the same comparison on mutated inputs.
@Suite("Provider answers")
struct ProviderAnswerTests {
    /// An answer, the instances of its launch, and whether the scan must read it.
    typealias Case = (answer: String, count: Int, fast: Bool)

    static let cases: [Case] = [
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"text":"hi","n":[1,2.5,null,true]}}],"policy":"atEnd"}"#, 3, true),
        (
            #"{"policy":{"after":"2026-01-05T10:00:00+09:00"},"entries":[{"date":"2026-01-05T09:00:00Z","content":"b"},{"date":"2026-01-05T08:00:00Z","content":"a"},{"date":"2026-01-05T09:00:00Z","content":"c"}]}"#,
            1, true
        ),
        (
            #"{"timelines":[{"entries":[{"date":"2026-01-05T08:00:00.250Z","relevance":{"score":-0,"duration":null}}]},{"error":"no data for this city"},{"entries":[],"policy":"never","error":"ignored"}]}"#,
            3, true
        ),
        (
            #" { "timelines" : [ { "entries" : [ { "date" : "2026-01-05T08:00:00Z" , "content" : { "z" : 1 , "B" : { "y" : [ ] , "a" : { } } , "a" : "\/" , "_" : 2.0 , "1" : 1e-7 , "é" : "é" , "aa" : -0 , "a_" : null } } ] } ] } "#,
            1, true
        ),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":1e-400,"duration":2}}],"extra":{"k":[1e2,"x"]}}"#, 1, true),
        (#"{"timelines":[{"entries":[]}],"entries":[],"policy":null,"other":true}"#, 1, true),
        // Faults of the answer, worded by the reference path.
        ("", 1, false), ("  ", 1, false), (#"{"entries": [1, 2,, 3]}"#, 1, false), ("[]", 1, false), ("null", 1, false),
        (#"{"timelines":{}}"#, 1, false), (#"{"timelines":null}"#, 1, false), (#"{"timelines":[]}"#, 1, false),
        (#"{"timelines":[{"entries":[]}]}"#, 2, false), (#"{"policy":"never"}"#, 1, false),
        (#"{"entries":[],"policy":"sometimes"}"#, 1, false), (#"{"entries":[],"policy":{"after":null}}"#, 1, false),
        (#"{"entries":[{"content":1}]}"#, 1, false), (#"{"entries":[{"date":"yesterday"}]}"#, 1, false),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":"high"}}]}"#, 1, false),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":1,"duration":-1}}]}"#, 1, false),
        // Dates outside years 1 to 9999, and relevance windows that would end past them.
        (#"{"entries":[{"date":"0000-01-05T08:00:00Z"}]}"#, 1, false),
        (#"{"entries":[],"policy":{"after":"0000-12-31T23:59:59Z"}}"#, 1, false),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","relevance":{"score":1,"duration":1e308}}]}"#, 1, false),
        (#"{"entries":[{"date":"9999-12-31T23:00:00Z","relevance":{"score":1,"duration":3601}}]}"#, 1, false),
        (#"{"entries":[{"date":"9999-12-31T23:00:00Z","relevance":{"score":1,"duration":3599}}]}"#, 1, true),
        (#"{"timelines":[{"entries":[]},{"error":5},{"entries":null,"error":"x"},1]}"#, 4, false),
        (#"{"timelines":[{"entries":[]},{}]}"#, 2, false),
        // Values only `JSONDecoder` can judge: the scan leaves them to it.
        (#"{"entries":[],"extra":1e400}"#, 1, false), (#"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"n":1e400}}]}"#, 1, false),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","content":"\u00e9"}]}"#, 1, false),
        (#"{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"a":1,"a":2}}]}"#, 1, false),
        (#"{"entries":[],"entries":[]}"#, 1, false), (#"{"entr\u0069es":[]}"#, 1, false),
        (#"{"timelines":[{"error":"\ud800"}]}"#, 1, false), (#"{"entries":[]} x"#, 1, false),
    ]

    @Test(arguments: cases)
    func scanAgreesWithTheReference(_ test: Case) throws {
        let data = Data(test.answer.utf8)
        let scanned = data.withUnsafeBytes { ProviderAnswer.scannedTimelines($0, count: test.count) }
        #expect((scanned != nil) == test.fast, "\(test.answer)")
        let reference = Self.outcome { () throws(ProviderAnswer.Fault) in
            try ProviderAnswer.decodedTimelines(from: data, count: test.count)
        }
        #expect(Self.outcome { () throws(ProviderAnswer.Fault) in try ProviderAnswer.timelines(from: data, count: test.count) } == reference)
        if let scanned { #expect(Self.describe(scanned) == reference, "\(test.answer)") }
    }

    /// The messages a provider's author reads.
    @Test func faultsSayWhatIsWrong() {
        func fault(_ answer: String, _ count: Int = 1) -> String {
            do {
                let results = try ProviderAnswer.timelines(from: Data(answer.utf8), count: count)
                return results.compactMap { result -> String? in
                    if case .failure(let fault) = result { return fault.reason }
                    return nil
                }.joined(separator: " | ")
            } catch {
                return error.reason
            }
        }
        #expect(fault("") == "empty output")
        #expect(fault(#"{"entries": [1, 2,, 3]}"#) == #"not JSON (line 1, column 19: expected a value, found ','): {"entries": [1, 2,, 3]}"#)
        #expect(fault("[]") == "expected a JSON object")
        #expect(fault(#"{"timelines":{}}"#) == ".timelines must be an array")
        #expect(fault(#"{"timelines":[{"entries":[]}]}"#, 2) == "1 timelines for 2 instances")
        #expect(fault(#"{"policy":"never"}"#) == ".entries is required")
        #expect(fault(#"{"entries":[{"content":1}]}"#) == ".entries[0].date is required")
        #expect(fault(#"{"timelines":[{"entries":[]},{"error":"no data"},{}]}"#, 3) == "the provider reported: no data | .timelines[2].entries is required")
        #expect(fault(#"{"timelines":[{"entries":[{"date":5}]}]}"#) == ".timelines[0].entries[0].date has the wrong type")
    }

    /// Answers built from valid and invalid parts, then some with a byte changed: the scan
    /// must agree with the reference on each, and must take most of the valid ones.
    @Test func generatedAnswersAgree() throws {
        var generator = AnswerGenerator(seed: 13)
        var taken = 0
        var plain = 0
        for round in 0..<3000 {
            var text = generator.answer()
            let count = generator.count
            let mustScan = round % 4 != 3 && generator.isPlain
            if round % 4 == 3 { text = generator.mutated(text) }
            let data = Data(text.utf8)
            let reference = Self.outcome { () throws(ProviderAnswer.Fault) in try ProviderAnswer.decodedTimelines(from: data, count: count) }
            let scanned = data.withUnsafeBytes { ProviderAnswer.scannedTimelines($0, count: count) }
            // An answer with no part the scan leaves to the decoder must take the fast path.
            if mustScan {
                plain += 1
                #expect(scanned != nil, "\(text)")
            }
            guard let scanned else { continue }
            taken += 1
            let fast = Self.describe(scanned)
            #expect(fast == reference, "\(text)")
            if fast != reference { return }
        }
        #expect(plain > 500)
        #expect(taken > plain)
    }

    // MARK: Comparing

    /// Everything a result holds, to the bit (`-0.0` is not `0.0` here).
    static func describe(_ results: [Result<WidgetTimeline, ProviderAnswer.Fault>]) -> String {
        results.map { result in
            switch result {
            case .failure(let fault): return "fault(\(fault.reason))"
            case .success(let timeline):
                let entries = timeline.entries.map { entry in
                    let relevance = entry.relevance.map { "\($0.score.bitPattern)/\($0.duration.bitPattern)" } ?? "-"
                    return "\(entry.date.timeIntervalSince1970.bitPattern) \(entry.contentJSON) \(relevance)"
                }
                let policy: String
                switch timeline.policy {
                case .atEnd: policy = "atEnd"
                case .never: policy = "never"
                case .after(let date): policy = "after \(date.timeIntervalSince1970.bitPattern)"
                }
                return "timeline(\(entries.joined(separator: "; ")) policy \(policy))"
            }
        }.joined(separator: "\n")
    }

    static func outcome(_ read: () throws(ProviderAnswer.Fault) -> [Result<WidgetTimeline, ProviderAnswer.Fault>]) -> String {
        do {
            return describe(try read())
        } catch {
            return "thrown(\(error.reason))"
        }
    }
}

/// Random answers: both shapes, entries out of order and with equal dates, numbers at the
/// edges of what `JSONValue` and `Double` hold, strings with escapes and non-ASCII text,
/// nested content, keys missing, repeated or unknown, values of the wrong type.
struct AnswerGenerator {
    var random: SplitMix64
    /// Instances of the launch of the last answer.
    private(set) var count = 1
    /// The last answer has nothing the scan must leave to the decoder.
    private(set) var isPlain = true

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let dates = [
        "2026-01-05T08:00:00Z", "2026-01-05T09:00:00Z", "2026-01-05T08:00:00Z", "2026-01-05T08:30:00+09:00",
        "2026-01-05T08:00:00.250Z", "2026-01-05T07:59:59.999-01:30", "2024-02-29T23:59:59Z",
    ]
    static let oddDates = [#""2026-01-05T24:00:00Z""#, #""2026-02-30T00:00:00Z""#, #""yesterday""#, "5", "null", #""2026-01-05T08:00:00""#]
    static let numbers = [
        "0", "1", "-5", "2.5", "0.1", "1.0", "2.0", "1e2", "1E+2", "-0", "-0.0", "3.14159e-5", "1e-7", "123456789012345678",
        "9007199254740992", "1e-400",
    ]
    /// Numbers the scan leaves to `JSONDecoder` (or that it refuses outright).
    static let oddNumbers = ["1e400", "-1e400", "12345678901234567890", "9007199254740993.0", "1e17", "01", "1.", ".5", "-"]
    static let strings = [
        #""a""#, #""é""#, #""😀""#, #""a\"b""#, #""\/""#, #""\n\t\\""#, #""""#, "\"\u{212A}\"", "\"e\u{301}\"", #""x y""#,
    ]
    static let oddStrings = [#""\u00e9""#, #""\ud800""#, "\"tab\there\"", #""\x""#]
    static let keys = ["a", "b", "B", "é", "e\u{301}", "\u{E9}", "_", "1", "aa", "a_", "z", "K", "\u{212A}"]

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func space() -> String { chance(15) ? pick([" ", "\n", "\t ", "\r\n  "]) : "" }

    mutating func answer() -> String {
        isPlain = true
        if chance(35) {
            count = Int.random(in: 1...4, using: &random)
            return object(members: timelineMembers(), shuffled: true)
        }
        let items = Int.random(in: 0...5, using: &random)
        count = chance(90) ? items : items + 1
        if count != items { isPlain = false }
        var list: [String] = []
        for _ in 0..<items { list.append(item()) }
        var members = [("\"timelines\"", "[" + list.joined(separator: "," + space()) + "]")]
        if chance(10) { members.append(("\"entries\"", entries())) }
        return object(members: members + extras(), shuffled: true)
    }

    private mutating func item() -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return object(members: [("\"error\"", pick(Self.strings))], shuffled: false)
        case 1: return object(members: [("\"error\"", pick(Self.strings)), ("\"entries\"", entries())], shuffled: true)
        case 2:
            isPlain = false
            return pick(["{}", "1", "[]", "null", #"{"error":5}"#, #"{"entries":null,"error":"x"}"#, #"{"error":"x","error":"y"}"#])
        default: return object(members: timelineMembers(), shuffled: true)
        }
    }

    /// A timeline's members: the answer's own in the shared shape, an element's otherwise.
    private mutating func timelineMembers() -> [(String, String)] {
        var members: [(String, String)] = []
        if chance(97) { members.append(("\"entries\"", entries())) } else { isPlain = false }
        if chance(60) { members.append(("\"policy\"", policy())) }
        members += extras()
        if chance(2) {
            isPlain = false
            members.append(members.first ?? ("\"entries\"", "[]"))
        }
        return members
    }

    private mutating func policy() -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return #""atEnd""#
        case 1: return #""never""#
        case 2: return "null"
        case 3: return object(members: [("\"after\"", pick(Self.dates).quoted)] + extras(), shuffled: true)
        case 4:
            isPlain = false
            return pick([#""sometimes""#, "5", #"{"after":null}"#, "{}", #"{"after":"2026-01-05T08:00:00Z","after":"2026-01-05T09:00:00Z"}"#])
        default: return object(members: [("\"after\"", pick(Self.dates).quoted)], shuffled: false)
        }
    }

    private mutating func entries() -> String {
        var list: [String] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) { list.append(entry()) }
        return "[" + space() + list.joined(separator: "," + space()) + space() + "]"
    }

    private mutating func entry() -> String {
        var members: [(String, String)] = []
        if chance(97) {
            if chance(4) {
                isPlain = false
                members.append(("\"date\"", pick(Self.oddDates)))
            } else {
                members.append(("\"date\"", pick(Self.dates).quoted))
            }
        } else {
            isPlain = false
        }
        if chance(85) { members.append(("\"content\"", value(depth: 0))) }
        if chance(40) { members.append(("\"relevance\"", relevance())) }
        members += extras()
        if chance(2) {
            isPlain = false
            members.append(members.first ?? ("\"content\"", "1"))
        }
        return object(members: members, shuffled: true)
    }

    private mutating func relevance() -> String {
        if chance(10) { return "null" }
        var members = [("\"score\"", number())]
        if chance(50) {
            let duration = chance(20) ? "null" : number()
            // A negative duration, or a window ending past year 9999, is the decoder's to word.
            if duration.hasPrefix("-5") || (Double(duration) ?? 0) > 1e10 { isPlain = false }
            members.append(("\"duration\"", duration))
        }
        if chance(5) {
            isPlain = false
            members = [("\"score\"", pick([#""high""#, "null", "true"]))]
        }
        return object(members: members + extras(), shuffled: true)
    }

    private mutating func number() -> String {
        if chance(5) {
            isPlain = false
            return pick(Self.oddNumbers)
        }
        return pick(Self.numbers)
    }

    /// Content, or a value under an unknown key.
    private mutating func value(depth: Int) -> String {
        switch Int.random(in: 0..<(depth < 3 ? 10 : 6), using: &random) {
        case 0: return pick(["true", "false", "null"])
        case 1, 2: return number()
        case 3, 4:
            if chance(4) {
                isPlain = false
                return pick(Self.oddStrings)
            }
            return pick(Self.strings)
        case 5:
            if chance(1) {
                isPlain = false
                return String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
            }
            return "[]"
        case 6, 7:
            var list: [String] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) { list.append(value(depth: depth + 1)) }
            return "[" + list.joined(separator: ",") + "]"
        default:
            var members: [(String, String)] = []
            var used: Set<String> = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let key = pick(Self.keys)
                // Repeated keys, also as canonically equal spellings, are the decoder's to judge.
                if !used.insert(key).inserted { isPlain = false }
                members.append(("\"\(key)\"", value(depth: depth + 1)))
            }
            return object(members: members, shuffled: false)
        }
    }

    /// Keys nobody reads.
    private mutating func extras() -> [(String, String)] {
        guard chance(15) else { return [] }
        return [(pick(["\"x\"", "\"error\"", "\"kind\""]), value(depth: 1))]
    }

    private mutating func object(members: [(String, String)], shuffled: Bool) -> String {
        let ordered = shuffled ? members.shuffled(using: &random) : members
        let body = ordered.map { "\(space())\($0.0)\(space()):\(space())\($0.1)" }.joined(separator: ",")
        return "{" + body + space() + "}"
    }

    /// The text with one byte deleted, doubled or replaced by a JSON delimiter.
    mutating func mutated(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(bytes[at], at: at)
        default: bytes[at] = pick(Array(#"{}[]:,"0-e.\ "#.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate var quoted: String { "\"\(self)\"" }
}
