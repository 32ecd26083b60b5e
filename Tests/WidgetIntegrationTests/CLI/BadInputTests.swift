import Foundation
import Testing
@testable import WidgetIntegrationSupport
@testable import WidgetTestSupport

extension Integration {
    /// Bad input gets a precise JSON-RPC error, changes nothing, and the daemon keeps serving.
    @Suite struct BadInput {
        @Test func eachMalformedRequestGetsTheRightError() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let connection = try RawConnection(path: fixture.socketPath)

            let parse = connection.request("{not json")
            #expect(parse?.errorCode == -32700)
            #expect(parse?["id"] is NSNull)
            // A non-empty array is a JSON-RPC batch: each member that is not a request gets its
            // own error; an empty array is one error.
            connection.send(Data("[1,2,3]\n".utf8))
            let batch = connection.readLine().flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [[String: Any]] }
            #expect(batch?.map(\.errorCode) == [-32600, -32600, -32600])
            #expect(connection.request("[]")?.errorCode == -32600)
            #expect(connection.request(#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#)?.errorCode == -32600)
            let unknownMethod = connection.request(#"{"jsonrpc":"2.0","id":7,"method":"frobnicate"}"#)
            #expect(unknownMethod?.errorCode == -32601)
            #expect(unknownMethod?["id"] as? Int == 7)
            let badParams = connection.request(#"{"jsonrpc":"2.0","id":2,"method":"add","params":{"kind":"test.counter","family":5}}"#)
            #expect(badParams?.errorCode == -32602)
            #expect(badParams?.errorMessage?.contains("params.family") == true)
            let missing = connection.request(#"{"jsonrpc":"2.0","id":3,"method":"add","params":{"family":"systemSmall"}}"#)
            #expect(missing?.errorCode == -32602)
            #expect(missing?.errorMessage?.contains("params.kind: required") == true)
            let unknownKind = connection.request(#"{"jsonrpc":"2.0","id":4,"method":"add","params":{"kind":"test.nope","family":"systemSmall"}}"#)
            #expect(unknownKind?.errorCode == -32001)
            let unsupported = connection.request(#"{"jsonrpc":"2.0","id":5,"method":"add","params":{"kind":"test.counter","family":"systemLarge"}}"#)
            #expect(unsupported?.errorCode == -32003)
            #expect(unsupported?.errorMessage?.contains("systemSmall, systemMedium") == true)
            let unknownFamily = connection.request(#"{"jsonrpc":"2.0","id":6,"method":"add","params":{"kind":"test.counter","family":"systemHuge"}}"#)
            #expect(unknownFamily?.errorCode == -32602)
            let unknownInstance = connection.request(#"{"jsonrpc":"2.0","id":8,"method":"remove","params":{"id":"nope"}}"#)
            #expect(unknownInstance?.errorCode == -32002)
            connection.send(Data([0xFF, 0xFE, 0x7B, 0x0A]))
            #expect(connection.readLine().flatMap { $0.data(using: .utf8) }.flatMap {
                (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }?.errorCode == -32700)
            // The same connection still works after all of that.
            #expect(connection.request(#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)?["result"] != nil)
            // Nothing was stored.
            #expect(fixture.ctl("--json", "list").array.isEmpty)
        }

        @Test func oversizedLineIsAnsweredAndClosed() throws {
            let fixture = try DaemonFixture()
            try fixture.start()
            let connection = try RawConnection(path: fixture.socketPath)
            connection.send(Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 100))
            let answer = connection.readLine().flatMap { $0.data(using: .utf8) }.flatMap {
                (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any]
            }
            #expect(answer?.errorCode == -32006)
            #expect(answer?.errorMessage?.contains("1048576") == true)
            #expect(connection.readLine() == nil)
            // Everyone else is still served.
            #expect(fixture.ctl("ping").status == 0)
        }

        @Test func notificationsGetNoAnswer() throws {
            let fixture = try DaemonFixture()
            try fixture.start()
            let connection = try RawConnection(path: fixture.socketPath)
            connection.send(#"{"jsonrpc":"2.0","method":"ping"}"# + "\n")
            let answer = connection.request(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#)
            #expect(answer?["id"] as? String == "after")
        }

        @Test func aHalfClosedConnectionStillGetsItsAnswers() throws {
            let fixture = try DaemonFixture()
            try fixture.counterWidget()
            try fixture.start()
            let connection = try RawConnection(path: fixture.socketPath)
            connection.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")
            // The last request without its newline, then end of input.
            connection.send(#"{"jsonrpc":"2.0","id":2,"method":"add","params":{"kind":"test.counter","family":"systemSmall"}}"#)
            connection.shutdownWrite()
            #expect(connection.readLine()?.contains(#""id":1"#) == true)
            let added = connection.readLine()
            #expect(added?.contains(#""id":2"#) == true)
            #expect(added?.contains(#""result":{"id":"#) == true)
            #expect(connection.readLine() == nil)
            #expect(fixture.ctl("--json", "list").array.count == 1)
        }
    }
}

extension Integration.BadInput {
    /// Answers still queued in the daemon when the client half-closes reach it before the close.
    /// Each `timeline` answer here is larger than a socket buffer, so at the end most of the last
    /// one is still waiting in the daemon: the close used to drop it.
    @Test func answersLargerThanTheSocketBufferSurviveAHalfClose() throws {
        let fixture = try DaemonFixture()
        try fixture.descriptor("test.push", exec: nil)
        try fixture.start()
        let id = try fixture.add("test.push")
        // 15 entries of 60,000 bytes: 900 KB, within max-entry-bytes (64 KiB) and the line limit.
        let content = String(repeating: "x", count: 60_000)
        let entries = (10..<25).map { minute in #"{"date":"2026-01-05T08:\#(minute):00Z","content":{"s":"\#(content)"}}"# }
        let pusher = try RawConnection(path: fixture.socketPath)
        let pushed = pusher.request(
            #"{"jsonrpc":"2.0","id":1,"method":"push","params":{"id":"\#(id)","timeline":{"entries":[\#(entries.joined(separator: ","))],"policy":"never"}}}"#)
        #expect(pushed?["result"] != nil)

        let connection = try RawConnection(path: fixture.socketPath)
        for n in 1...3 {
            connection.send(#"{"jsonrpc":"2.0","id":\#(n),"method":"timeline","params":{"id":"\#(id)"}}"# + "\n")
        }
        connection.shutdownWrite()
        for n in 1...3 {
            let answer = connection.readLine()
            #expect(answer?.hasPrefix(#"{"id":\#(n),"#) == true)
            #expect(answer?.count ?? 0 > 900_000)
        }
        #expect(connection.readLine() == nil)
    }
}
