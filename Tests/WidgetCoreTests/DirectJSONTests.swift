import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// Answers written without JSONEncoder are byte for byte what JSONEncoder writes.
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
            let direct = String(decoding: RPCSuccess(id: id, result: result).directJSON(), as: UTF8.self)
            #expect(direct == (try expected(id, result)))
        }
    }

    @Test(arguments: ids) func donateAnswers(id: RPCID?) throws {
        for matched in [[], Self.awkward] {
            let result = DonateResult(matched: matched)
            let direct = String(decoding: RPCSuccess(id: id, result: result).directJSON(), as: UTF8.self)
            #expect(direct == (try expected(id, result)))
        }
    }
}
