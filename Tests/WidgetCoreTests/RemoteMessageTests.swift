import Foundation
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetTestSupport

/// Reading MQTT topics and payloads into remote updates, and the requests they become.
@Suite("Remote messages")
struct RemoteMessageTests {
    let topics = RemoteTopics(prefix: "fleet/k7")

    private func read(_ topic: String, _ payload: String) throws(RemoteRefusal) -> RemoteMessage {
        try topics.message(topic: topic, payload: Array(payload.utf8))
    }

    @Test func subscriptions() {
        #expect(topics.subscriptions == ["fleet/k7/reload", "fleet/k7/push/+", "fleet/k7/donate"])
    }

    @Test func everyKindOfMessageReads() throws {
        #expect(try read("fleet/k7/reload", #"{"kinds": ["a.b", "c", "a.b"]}"#) == .reload(kinds: ["a.b", "c"]))
        #expect(try read("fleet/k7/reload", #" {"all": true} "#) == .reloadAll)
        let timeline = #"{"entries": [{"date": "2026-01-05T08:00:00Z", "content": "x"}]}"#
        #expect(try read("fleet/k7/push/i-1", timeline) == .push(instance: "i-1", timeline: Array(timeline.utf8)))
        let donation = #"{"intentType": "ShowStock", "id": "d1"}"#
        #expect(try read("fleet/k7/donate", donation) == .donate(params: Array(donation.utf8)))
    }

    @Test(arguments: [
        ("fleet/k7/reload", "{", "not JSON"),
        ("fleet/k7/reload", "[]", "not a JSON object"),
        ("fleet/k7/reload", #"{"kinds": []}"#, "non-empty"),
        ("fleet/k7/reload", #"{"kinds": [1]}"#, "non-empty"),
        ("fleet/k7/reload", #"{"kinds": [""]}"#, "non-empty"),
        ("fleet/k7/reload", #"{"all": false}"#, "give"),
        ("fleet/k7/reload", #"{"all": true, "kinds": ["a"]}"#, "give"),
        ("fleet/k7/reload", #"{"kind": "a"}"#, "unknown key 'kind'"),
        ("fleet/k7/push/i1", #"{"entries": []} {}"#, "not JSON"),
        ("fleet/k7/push/i1", #""text""#, "not a JSON object"),
        ("fleet/k7/push/", "{}", "no instance"),
        ("fleet/k7/push/a/b", "{}", "no instance"),
        ("fleet/k7/donate", "", "not JSON"),
        ("fleet/k7/other", "{}", "unknown topic"),
        ("fleet/k8/reload", #"{"all": true}"#, "outside"),
    ])
    func malformedMessagesAreRefused(topic: String, payload: String, mention: String) {
        #expect {
            try read(topic, payload)
        } throws: { error in
            (error as? RemoteRefusal)?.reason.contains(mention) == true
        }
    }

    @Test func donationKeys() throws {
        let key = RemoteMessage.donate(params: Array(#"{"intentType": "T", "id": "d1"}"#.utf8)).donationKey
        #expect(key?.intentType == "T" && key?.id == "d1")
        #expect(RemoteMessage.donate(params: Array(#"{"intentType": "T"}"#.utf8)).donationKey == nil)
        #expect(RemoteMessage.reloadAll.donationKey == nil)
    }

    @Test func publications() throws {
        #expect(topics.stackTopic("home/desk+#%") == "fleet/k7/state/stacks/home%2Fdesk%2B%23%25")
        let removed = WidgetEvent(type: .stack, date: t0, stackName: "home")
        let out = topics.publications(for: removed)
        #expect(out.map(\.topic) == ["fleet/k7/state/events", "fleet/k7/state/stacks/home"])
        #expect(out.map(\.retain) == [false, true])
        // An empty retained message clears the removed stack's state.
        #expect(out[1].payload.isEmpty)
        let event = try JSONSerialization.jsonObject(with: Data(out[0].payload)) as? [String: Any]
        #expect(event?["type"] as? String == "stack" && event?["stackName"] as? String == "home")
        let entry = topics.publications(for: WidgetEvent(type: .entryChange, date: t0, instance: "w-1"))
        #expect(entry.map(\.topic) == ["fleet/k7/state/events"])
    }

    @Test func reloadTargets() {
        #expect(RemoteMessage.reload(kinds: ["a", "b"]).reloadTargets == ["a", "b"])
        #expect(RemoteMessage.reloadAll.reloadTargets == ["*"])
        #expect(RemoteMessage.donate(params: []).reloadTargets.isEmpty)
    }
}
