import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// A remote update becomes the request the socket would get for its method's spec.
@Suite struct RemoteRequestTests {
    func request(_ message: RemoteMessage) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(message.requestLine(id: 7))) as? [String: Any]
        #expect(object?["jsonrpc"] as? String == "2.0")
        #expect(object?["id"] as? Int == 7)
        return object ?? [:]
    }

    @Test func requestsAreTheSocketsMethods() throws {
        let reload = try request(.reload(kinds: ["a", "q\"uote"]))
        #expect(reload["method"] as? String == Methods.ReloadTimelines.name)
        #expect((reload["params"] as? [String: Any])?["kinds"] as? [String] == ["a", "q\"uote"])
        #expect(try request(.reloadAll)["method"] as? String == Methods.ReloadAllTimelines.name)
        let push = try request(.push(instance: "i\"1", timeline: Array(#"{"entries": []}"#.utf8)))
        #expect(push["method"] as? String == Methods.Push.name)
        let params = push["params"] as? [String: Any]
        #expect(params?["id"] as? String == "i\"1")
        #expect((params?["timeline"] as? [String: Any])?["entries"] as? [Any] != nil)
        let donate = try request(.donate(params: Array(#"{"intentType": "T"}"#.utf8)))
        #expect(donate["method"] as? String == Methods.Donate.name)
        #expect((donate["params"] as? [String: Any])?["intentType"] as? String == "T")
    }

    /// The line a spec writes with typed params reads back as those params.
    @Test func typedLinesCarryTheirParams() throws {
        let line = try Methods.DonationsList.requestLine(id: 3, params: DonationsListParams(intentType: "T\""))
        let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
        #expect(object?["method"] as? String == "donations.list")
        #expect((object?["params"] as? [String: Any])?["intentType"] as? String == "T\"")
    }
}
