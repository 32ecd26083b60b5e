import Foundation
import NIOCore
import Synchronization
import Testing
import WidgetCore
import WidgetProtocol
@testable import WidgetDaemon

/// Rotation events reach each subscriber as its caller may see their donations; each
/// distinct form is encoded once.
@Suite struct EventRedactionTests {
    static let owner = PeerCredentials(uid: 1001, gid: 1001, pid: 3)
    static let other = PeerCredentials(uid: 1004, gid: 1004, pid: 6)

    @Test func eachSubscriberGetsItsForm() throws {
        let hub = EventHub()
        let seen = Mutex<[String: [String]]>([:])
        func subscriber(_ name: String, _ caller: PeerCredentials?) -> Subscriber {
            Subscriber(caller: caller) { line in
                seen.withLock { $0[name, default: []].append(String(decoding: line.readableBytesView, as: UTF8.self)) }
            }
        }
        let subscribers = [
            subscriber("daemon", nil), subscriber("owner", Self.owner), subscriber("other", Self.other),
            subscriber("other2", PeerCredentials(uid: Self.other.uid, gid: Self.other.gid, pid: 7)),
        ]
        for item in subscribers { hub.subscribe(item) }
        let candidates = [
            RankedCandidate(instance: "a", score: nil, relevanceSince: nil, relevanceUntil: nil, relevance: 0, affinity: 0.5,
                            donations: ["secret-id"], eligible: true, rank: 0.5),
            RankedCandidate(instance: "b", score: nil, relevanceSince: nil, relevanceUntil: nil, relevance: 1, affinity: 0,
                            donations: [], eligible: true, rank: 1),
        ]
        let decision = RotationDecision(
            date: Date(timeIntervalSince1970: 0), stack: "s", from: "a", to: "b", candidate: "b", reason: .betterCandidate,
            candidates: candidates)
        let event = WidgetEvent(type: .rotation, date: decision.date, decision: decision)
        var asked = 0
        hub.publish(event) { caller in
            asked += 1
            return caller == Self.owner ? DonationSight.everything : DonationSight.nothing.narrowed(to: event.donationInstances)
        }
        let lines = seen.withLock { $0 }
        #expect(asked == 2, "the daemon's own subscriber needs no decision; one user's two subscriptions share one")
        #expect(lines["daemon"]?.first?.contains("secret-id") == true)
        #expect(lines["owner"]?.first?.contains("secret-id") == true)
        #expect(lines["other"]?.first?.contains("secret-id") == false)
        #expect(lines["other"]?.first?.contains(#""affinity":0.5,"clue":null,"donations":[],"donationsHidden":true,"eligible":true"#) == true)
        #expect(lines["other"] == lines["other2"])

        // An event without donations is one line for all, no sight asked.
        hub.publish(WidgetEvent(type: .reload, date: decision.date, instances: ["a"], kind: "k"))
        #expect(Set(seen.withLock { $0.values.map { $0.last ?? "" } }).count == 1)
        for item in subscribers { hub.unsubscribe(item) }
    }
}
