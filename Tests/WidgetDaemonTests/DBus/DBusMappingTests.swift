import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// The pure half of the D-Bus interface: in-args to params, results to out-args, JSON to
/// variants, errors to names, events to signals.
@Suite struct DBusMappingTests {
    func method(_ name: String) throws -> DBusMethod { try #require(DBusMethodTable.byName[name]) }

    @Test func eachMethodNamesItsJSONRPCMethodAndSignatures() throws {
        let expected: [String: (String, String, String)] = [
            "ReloadTimelines": ("reloadTimelines", "asb", "as"), "ReloadAllTimelines": ("reloadAllTimelines", "b", "as"),
            "ReloadInstances": ("reloadTimelines", "asb", "as"), "InvalidateRelevance": ("invalidateRelevance", "as", "u"),
            "GetCurrentConfigurations": ("list", "", "aa{sv}"), "Donate": ("donate", "sa{sv}", "u"),
            "DeleteDonations": ("donations.delete", "a{sv}", "u"), "Perform": ("perform", "ss", "a{sv}"),
        ]
        #expect(Set(DBusMethodTable.methods.map(\.name)) == Set(expected.keys))
        for method in DBusMethodTable.methods {
            let (rpc, inSignature, outSignature) = try #require(expected[method.name])
            #expect(method.spec.name == rpc, "\(method.name)")
            #expect(method.inSignature == inSignature, "\(method.name)")
            #expect(method.outSignature == outSignature, "\(method.name)")
        }
    }

    @Test func inArgsBecomeTheParamsTheSocketDecodes() throws {
        let kinds = DBusCall(try method("ReloadTimelines"), args: [.array([.string("a.b")]), .bool(true)])
        let decoded = try JSONDecoder().decode(ReloadTimelinesParams.self, from: Data(kinds.requestLineParams))
        #expect(decoded == ReloadTimelinesParams(kinds: ["a.b"], userInitiated: true))
        let instances = DBusCall(try method("ReloadInstances"), args: [.array([.string("w1")]), .bool(false)])
        #expect(
            try JSONDecoder().decode(ReloadTimelinesParams.self, from: Data(instances.requestLineParams))
                == ReloadTimelinesParams(instances: ["w1"], userInitiated: false))
        let donate = DBusCall(try method("Donate"), args: [.string("T"), .object(["n": .integer(3)])])
        #expect(donate.params == .object(["intentType": .string("T"), "parameters": .object(["n": .integer(3)])]))
        let which = DBusCall(try method("DeleteDonations"), args: [.object(["all": .bool(true)])])
        #expect(which.params == .object(["all": .bool(true)]))
        let line = String(decoding: which.requestLine(id: 7), as: UTF8.self)
        #expect(line.contains(#""method":"donations.delete""#) && line.contains(#""id":7"#))
    }

    @Test func resultsBecomeOutArgs() throws {
        let reload = try method("ReloadAllTimelines")
        #expect(reload.result(.object(["instances": .array([.string("a"), .string("b")])])) == [.strings(["a", "b"])])
        #expect(try method("InvalidateRelevance").result(.object(["updated": .array([.string("a")]), "limited": .array([])])) == [.uint32(1)])
        #expect(try method("DeleteDonations").result(.object(["deleted": .integer(4)])) == [.uint32(4)])
        let list: JSONValue = .array([.object([
            "id": .string("w1"), "kind": .string("k"), "family": .string("systemSmall"), "hasTimeline": .bool(true),
            "configuration": .object(["city": .string("Oslo"), "gone": .null]),
        ])])
        #expect(
            try method("GetCurrentConfigurations").result(list) == [.dictionaries([[
                "id": .string("w1"), "kind": .string("k"), "family": .string("systemSmall"),
                "configuration": .dictionary(["city": .string("Oslo")]),
            ]])])
        // A result of another shape is a bug, answered as an internal error.
        #expect(reload.result(.array([])) == nil)
        let call = DBusCall(reload, args: [.bool(false)])
        guard case .error(let name, _) = call.reply(to: Array(#"{"id":1,"jsonrpc":"2.0","result":[]}"#.utf8)) else {
            Issue.record("a result of the wrong shape was replied to")
            return
        }
        #expect(name == "org.widgetd.WidgetCenter1.Error.InternalError")
    }

    @Test func jsonValuesTravelAsVariants() {
        let value = DBusValue(json: .object([
            "s": .string("x"), "b": .bool(true), "i": .integer(-2), "d": .number(0.5), "n": .null,
            "a": .array([.integer(1), .null, .object([:])]),
        ]))
        #expect(value == .dictionary([
            "s": .string("x"), "b": .boolean(true), "i": .int64(-2), "d": .double(0.5),
            "a": .variants([.int64(1), .variants([]), .dictionary([:])]),
        ]))
        #expect(value.signature == "a{sv}")
    }

    @Test func errorsAreNamedForTheirJSONRPCCodeWithTheSameMessage() {
        let codes = [
            RPCError.Code.parseError, RPCError.Code.invalidRequest, RPCError.Code.methodNotFound, RPCError.Code.invalidParams,
            RPCError.Code.internalError, RPCError.Code.unknownKind, RPCError.Code.unknownInstance, RPCError.Code.unsupportedFamily,
            RPCError.Code.clockNotVirtual, RPCError.Code.storageFailure, RPCError.Code.messageTooLarge, RPCError.Code.busy,
            RPCError.Code.noProvider, RPCError.Code.providerFailed, RPCError.Code.shuttingDown, RPCError.Code.unknownStack,
            RPCError.Code.stackExists, RPCError.Code.permissionDenied, RPCError.Code.limitExceeded, RPCError.Code.unusableKind,
        ]
        let names = codes.map(DBusErrorName.name(for:))
        #expect(Set(names).count == codes.count, "two codes share a name")
        #expect(!names.contains("org.widgetd.WidgetCenter1.Error.Failed"))
        #expect(DBusErrorName.name(for: RPCError.Code.permissionDenied) == "org.widgetd.WidgetCenter1.Error.PermissionDenied")
        #expect(DBusErrorName.name(for: -1) == "org.widgetd.WidgetCenter1.Error.Failed")

        let call = DBusCall(DBusMethodTable.byName["Perform"]!, args: [.string("w9"), .string("go")])
        let answer = #"{"error":{"code":-32002,"message":"no instance with id 'w9'","data":{"id":"w9"}},"id":1,"jsonrpc":"2.0"}"#
        #expect(
            call.reply(to: Array(answer.utf8))
                == .error(name: "org.widgetd.WidgetCenter1.Error.UnknownInstance", message: "no instance with id 'w9'"))
    }

    @Test func eventsBecomeSignals() {
        let date = Date(timeIntervalSince1970: 0)
        let kinds = ["w1": "k.one"]
        func signals(_ event: WidgetEvent) -> [DBusSignal] { DBusSignal.signals(for: event) { kinds[$0] } }
        #expect(signals(WidgetEvent(type: .entryChange, date: date, instance: "w1")) == [DBusSignal(name: "EntryChanged", args: ["w1", "k.one"])])
        #expect(
            signals(WidgetEvent(type: .reload, date: date, instances: ["w1", "w2"], kind: "k.one"))
                == [DBusSignal(name: "TimelineChanged", args: ["w1", "k.one"]), DBusSignal(name: "TimelineChanged", args: ["w2", "k.one"])])
        var invalidated = WidgetEvent(type: .invalidated, date: date, instance: "w1")
        invalidated.action = "toggle"
        #expect(signals(invalidated) == [DBusSignal(name: "Invalidated", args: ["w1", "toggle"])])
        let rotated = RotationDecision(date: date, stack: "home", from: nil, to: "w2", candidate: "w2", reason: .betterCandidate, candidates: [])
        #expect(signals(WidgetEvent(type: .rotation, date: date, decision: rotated)) == [DBusSignal(name: "Rotated", args: ["home", "", "w2", "betterCandidate"])])
        // Held back: the top did not change.
        let held = RotationDecision(date: date, stack: "home", from: "w1", to: nil, candidate: "w2", reason: .heldByDwell, candidates: [])
        #expect(signals(WidgetEvent(type: .rotation, date: date, decision: held)).isEmpty)
        #expect(signals(WidgetEvent(type: .reloadFailed, date: date, instances: ["w1"], kind: "k.one", error: "x")).isEmpty)
    }

    @Test func introspectionDeclaresEveryMethodSignalAndProperty() {
        let xml = DBusIntrospection.xml
        for method in DBusMethodTable.methods { #expect(xml.contains("<method name=\"\(method.name)\">")) }
        for signal in DBusSignal.declarations { #expect(xml.contains("<signal name=\"\(signal.name)\">")) }
        #expect(xml.contains(#"<property name="Version" type="s" access="read">"#))
        #expect(xml.contains(#"<property name="Protocol" type="u" access="read">"#))
    }
}

extension DBusCall {
    /// The params of the request line, as JSON bytes.
    fileprivate var requestLineParams: [UInt8] {
        Array((try? JSONEncoder().encode(params)) ?? Data())
    }
}
