import Foundation
import Testing
import WidgetCore
import WidgetProtocol

/// The client's side of a batch, without a socket: the line it writes, how answers are
/// matched to calls, and the file `widgetctl batch` reads.
@Suite("Client batches")
struct RPCBatchTests {
    let calls = [
        BatchCall(Methods.Visible.self, VisibleParams(instances: ["a1"]), notification: true),
        BatchCall(Methods.StackShow.self, StackNameParams(name: "home")),
        BatchCall(method: "ping", params: nil),
    ]

    @Test func lineHasOneMemberPerCall() throws {
        let line = try RPCBatch.line(calls, ids: [nil, .number(7), .string("p")])
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"[{"jsonrpc":"2.0","method":"visible","params":{"instances":["a1"]}},"#
                + #"{"id":7,"jsonrpc":"2.0","method":"stack.show","params":{"name":"home"}},"#
                + #"{"id":"p","jsonrpc":"2.0","method":"ping"}]"#)
    }

    /// What the client writes is what the daemon's decoder reads back.
    @Test func theDaemonReadsTheLine() throws {
        let line = try RPCBatch.line(calls, ids: [nil, .number(7), .string("p")])
        guard case .batch(let members) = line.withUnsafeBytes({ RequestDecoder.decodeLine($0) }) else {
            Issue.record("not a batch")
            return
        }
        let requests = try members.map { try $0.get() }
        #expect(requests.map(\.method) == ["visible", "stack.show", "ping"])
        #expect(requests.map(\.id) == [nil, .number(7), .string("p")])
        #expect(requests[0].isNotification)
        #expect(try requests[0].params(VisibleParams.self) == VisibleParams(instances: ["a1"]))
        #expect(try requests[1].params(StackNameParams.self) == StackNameParams(name: "home"))
        #expect(!requests[2].hasParams)
    }

    @Test func answersAreMatchedByID() throws {
        let line = Data(
            (#"[{"id":"p","jsonrpc":"2.0","result":{"daemon":"0.1","protocol":1}},"#
                + #"{"id":7,"jsonrpc":"2.0","error":{"code":-32011,"message":"no stack named 'home'"}}]"#).utf8)
        let answers = try RPCBatch.answers(line, ids: [nil, .number(7), .string("p")])
        guard case .notification = answers[0] else { throw Failed(answers[0]) }
        #expect(answers[1].error == .unknownStack("home"))
        guard case .result(let text) = answers[2] else { throw Failed(answers[2]) }
        #expect(try WidgetJSON.decoder.decode(RPCResultBox<PingResult>.self, from: text).result.protocol == 1)
    }

    /// An error the daemon could not tie to an id goes to a call left without an answer.
    @Test func errorsWithoutIDFillTheGaps() throws {
        let line = Data(
            #"[{"id":1,"jsonrpc":"2.0","result":true},{"id":null,"jsonrpc":"2.0","error":{"code":-32600,"message":"invalid request: expected a JSON object"}}]"#
                .utf8)
        let answers = try RPCBatch.answers(line, ids: [.number(1), .number(2)])
        #expect(answers[1].error?.code == -32600)
    }

    @Test func oneErrorForTheWholeBatchIsARefusal() {
        let line = Data(#"{"id":null,"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error: not valid JSON"}}"#.utf8)
        #expect(throws: BatchAnswerError.self) { try RPCBatch.answers(line, ids: [.number(1)]) }
        do {
            _ = try RPCBatch.answers(line, ids: [.number(1)])
        } catch {
            guard case .refused(let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.code == -32700)
        }
    }

    @Test(arguments: [
        #"[{"id":1,"jsonrpc":"2.0","result":true}]"#,  // no answer for id 2
        #"[{"id":1,"jsonrpc":"2.0","result":true},{"id":3,"jsonrpc":"2.0","result":true}]"#,  // nobody asked for 3
        #"{"id":1,"jsonrpc":"2.0","result":true}"#,  // not an array
        "not json",
    ])
    func unmatchableAnswersAreMalformed(line: String) {
        do {
            _ = try RPCBatch.answers(Data(line.utf8), ids: [.number(1), .number(2)])
            Issue.record("matched \(line)")
        } catch {
            guard case .malformed = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    // MARK: widgetctl's batch file

    @Test func batchFile() throws {
        let text = #"""
            [{"method": "visible", "params": {"instances": ["a"]}, "notification": true},
             {"method": "stack.show", "params": {"name": "home"}, "id": "home"},
             {"method": "ping", "params": null}]
            """#
        let calls = try BatchFile.calls(from: Data(text.utf8))
        #expect(calls.map(\.method) == ["visible", "stack.show", "ping"])
        #expect(calls.map(\.isNotification) == [true, false, false])
        #expect(calls.map(\.id) == [nil, .string("home"), nil])
        #expect(calls[2].params == nil)
        let line = try RPCBatch.line(calls, ids: [nil, .string("home"), .number(1)])
        #expect(String(decoding: line, as: UTF8.self).contains(#"{"id":"home","jsonrpc":"2.0","method":"stack.show","params":{"name":"home"}}"#))
    }

    @Test(arguments: [
        ("[]", "the batch is empty"),
        ("{}", "expected a JSON array of calls"),
        ("[", "not valid JSON"),
        (#"[{"params": {}}]"#, "[0].method: required"),
        (#"[{"method": "ping", "notifcation": true}]"#, "[0].notifcation: unknown member (method, params, id, notification)"),
        (#"[{"method": "ping", "id": 1, "notification": true}]"#, "[0]: a notification has no id"),
        (#"[{"method": "ping", "id": 1}, {"method": "ping", "id": 1}]"#, "[1].id: 1 is used twice"),
    ])
    func badBatchFiles(text: String, message: String) {
        do {
            _ = try BatchFile.calls(from: Data(text.utf8))
            Issue.record("read \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    struct Failed: Error {
        var answer: BatchAnswer
        init(_ answer: BatchAnswer) { self.answer = answer }
    }
}
