import Foundation
import Testing
import WidgetCore
@testable import WidgetWeb

/// The web host's pieces that need no daemon and no browser.
@Suite("Web host parts")
struct WebHostPartsTests {
    @Test func listenAddressesParse() {
        #expect(ListenAddress("127.0.0.1:8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(ListenAddress("[::1]:0") == ListenAddress(host: "::1", port: 0))
        #expect(ListenAddress("localhost:65535")?.description == "localhost:65535")
        #expect(ListenAddress(host: "::1", port: 8080).description == "[::1]:8080")
        for bad in ["8080", ":8080", "host:", "host:port", "host:65536", "host:-1"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
    }

    @Test func theGenericCardEscapesAndLabelsTheContent() {
        let html = GenericCard.html(.object([
            "fullHealthAt": .string("<b>soon</b>"), "tags": .array([.string("a"), .integer(2)]), "nested": .object(["x": .bool(true)]),
        ]))
        #expect(html.contains("<dt>full health at</dt><dd>&lt;b&gt;soon&lt;/b&gt;</dd>"))
        #expect(html.contains("<dd>a, 2</dd>"))
        #expect(html.contains(#"<dd>{&quot;x&quot;:true}</dd>"#))
        #expect(GenericCard.html(.integer(42)).contains(">42<"))
        #expect(GenericCard.html(.null).contains("No content"))
        let many = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<9).map { ("k\($0)", JSONValue.integer(Int64($0))) }))
        #expect(GenericCard.html(many).contains("+3 more"))
    }

    @Test func daemonEventsBecomeServerSentEventsNamedByType() {
        let line = Data(#"{"jsonrpc":"2.0","method":"event","params":{"type":"rotation","stack":"home","note":"a\nb"}}"#.utf8)
        let event = DaemonSubscription.event(line)
        #expect(event?.hasPrefix("event: rotation\ndata: {") == true)
        // One data line: a newline inside the JSON stays escaped.
        #expect(event?.split(separator: "\n", omittingEmptySubsequences: false).count == 4)
        #expect(DaemonSubscription.event(Data(#"{"jsonrpc":"2.0","id":1,"result":{"subscribed":true}}"#.utf8)) == nil)
        #expect(DaemonSubscription.event(Data(#"{"method":"event","params":{"type":"x\ny"}}"#.utf8)) == nil)
    }

    @Test func cardsTakeTheirButtonsAndInvalidatedStateFromTheListAsWritten() throws {
        let list = try WidgetJSON.decoder.decode([JSONValue].self, from: Data(#"""
            [{"id":"a","invalidated":true,"currentEntry":{"date":"2026-01-05T08:00:00Z","content":{},
              "actions":[{"id":"done-milk","title":"Done: Milk","intent":{"type":"ToggleTask","parameters":{"task":"milk"}}},
                         {"id":"x","intent":{"type":"T"}}, {"title":"no id"}]}},
             {"id":"b","currentEntry":{"date":"2026-01-05T08:00:00Z","content":{}}},
             {"id":"c","invalidated":false}]
            """#.utf8))
        let cards = CardActions.read(list)
        #expect(cards["a"]?.invalidated == true)
        // A button without a title says its id; one without an id cannot be performed.
        #expect(cards["a"]?.buttons.map(\.id) == ["done-milk", "x"])
        #expect(cards["a"]?.buttons.map(\.title) == ["Done: Milk", "x"])
        #expect(cards["b"]?.buttons.isEmpty == true && cards["b"]?.invalidated == false)
        #expect(cards["c"]?.invalidated == false)
        // The event that starts it passes to the browsers like the others.
        let line = Data(#"{"jsonrpc":"2.0","method":"event","params":{"type":"invalidated","instance":"a","action":"done-milk"}}"#.utf8)
        #expect(DaemonSubscription.event(line)?.hasPrefix("event: invalidated\n") == true)
    }

    @Test func theHubReportsTheUnionOfWhatBrowsersShowAndForgetsABrowserThatLeaves() {
        let reports = Reports()
        let hub = BrowserHub { reports.append($0) }
        let first = hub.connect().id
        let second = hub.connect().id
        #expect(hub.show(["a", "b"], client: first))
        #expect(hub.show(["b", "c"], client: second))
        #expect(hub.show(["b", "c"], client: second))  // unchanged: not reported again
        #expect(!hub.show(["z"], client: 99))
        hub.disconnect(first)
        hub.disconnect(second)
        #expect(reports.all == [["a", "b"], ["a", "b", "c"], ["b", "c"], []])
    }
}

/// What the hub reported, in order.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [[String]] = []
    func append(_ report: [String]) { lock.withLock { reports.append(report) } }
    var all: [[String]] { lock.withLock { reports } }
}
