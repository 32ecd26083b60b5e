import Foundation
import Testing
@testable import WidgetCore
import WidgetProtocol

/// Answers written without JSONEncoder (the daemon's `successLine`) are byte for byte what
/// JSONEncoder writes.
@Suite struct DirectJSONTests {
    static let awkward: [String] = {
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        return ["", "415f970d", #"quote " backslash \ slash /"#, controls, "é € 😀 \u{2028} \u{7f}"]
    }()

    static let ids: [RPCID?] = [nil, .number(0), .number(-42), .number(Int64.max), .string(""), .string("a\"b\\c\n")]

    func expected<R: Encodable>(_ id: RPCID?, _ result: R) throws -> String {
        String(decoding: try WidgetJSON.encoder.encode(RPCSuccess(id: id, result: result)), as: UTF8.self)
    }

    @Test(arguments: ids) func reloadAnswers(id: RPCID?) throws {
        for instances in [[], ["415f970d"], Self.awkward] {
            let result = ReloadResult(instances: instances)
            let direct = String(decoding: result.successLine(id: id), as: UTF8.self)
            #expect(direct == (try expected(id, result)))
        }
    }

    @Test(arguments: ids) func donateAnswers(id: RPCID?) throws {
        for matched in [[], Self.awkward] {
            let result = DonateResult(matched: matched)
            let direct = String(decoding: result.successLine(id: id), as: UTF8.self)
            #expect(direct == (try expected(id, result)))
        }
    }
}

/// The other hot answers (ping, visible, push, stack.show) against JSONEncoder.
@Suite struct DirectJSONMoreTests {
    func check<R: DirectJSONEncodable>(_ result: R) throws {
        for id in DirectJSONTests.ids {
            let direct = String(decoding: result.successLine(id: id), as: UTF8.self)
            let expected = String(decoding: try WidgetJSON.encoder.encode(RPCSuccess(id: id, result: result)), as: UTF8.self)
            #expect(direct == expected)
        }
    }

    @Test func pingVisibleAndPush() throws {
        try check(PingResult(daemon: "0.1.0", protocol: 1))
        try check(VisibleResult(visible: []))
        try check(VisibleResult(visible: DirectJSONTests.awkward))
        try check(PushResult(instance: "415f970d", entries: 3, nextReload: nil))
        try check(PushResult(instance: #"a"b"#, entries: 0, nextReload: Date(timeIntervalSince1970: 1_767_600_000.25)))
    }

    @Test func stacks() throws {
        var state = StackState(name: "home \"x\"", instances: ["a", "b"])
        try check(StackInfo(state))
        state.top = nil
        try check(StackInfo(state))
        state.swipe(to: "b", at: Date(timeIntervalSince1970: 1_767_600_000), hold: 3600)
        state.smartRotate = false
        try check(StackInfo(state))
        try check(StackInfo(StackState(name: "")))
    }
}

/// Donations are stored as JSON written without JSONEncoder; they must read back the same.
@Suite struct DonationJSONTests {
    @Test func donationsReadBackAsTheyWere() throws {
        let parameters: [String: JSONValue] = [
            "city": .string("Zürich \"x\" \\ /"), "n": .integer(-5), "x": .number(0.1), "big": .number(1e300),
            "small": .number(1e-7), "list": .array([.null, .bool(true), .object(["b": .integer(1), "a": .array([])])]),
            "": .string(DirectJSONTests.awkward[3]),
        ]
        let donations = [
            Donation(intentType: "ShowStock", parameters: [:], date: Date(timeIntervalSince1970: 1_767_600_000)),
            Donation(intentType: "Weird \u{1}", parameters: parameters, date: Date(timeIntervalSince1970: 1_767_600_000.125), id: "d\n1", group: "g"),
        ]
        for donation in donations {
            let decoded = try WidgetJSON.decoder.decode(Donation.self, from: Data(donation.json.utf8))
            #expect(decoded == donation)
        }
    }
}

/// The size limits count an object's compact JSON without the encoder; the count must be the
/// encoder's, or a limit would let through (or refuse) what it should not.
@Suite struct CompactBytesTests {
    @Test func countsWhatTheEncoderWrites() throws {
        let objects: [[String: JSONValue]] = [
            ["a": .integer(1)],
            [
                "city": .string("Zürich \"x\" \\ /"), "n": .integer(-5), "x": .number(0.1), "big": .number(1e300),
                "small": .number(1e-7), "whole": .number(2), "list": .array([.null, .bool(true), .object(["b": .integer(1), "a": .array([])])]),
                "": .string(DirectJSONTests.awkward[3]), "emoji": .string("👩‍👩‍👧 ✓"),
            ],
        ]
        for object in objects {
            let encoded = try WidgetJSON.encoder.encode(JSONValue.object(object)).count
            #expect(LimitSettings.compactBytes(object) == encoded)
        }
        #expect(LimitSettings.compactBytes([:]) == 2)
    }
}
